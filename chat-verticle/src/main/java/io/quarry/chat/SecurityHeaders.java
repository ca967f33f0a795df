package io.quarry.chat;

import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.CSPHandler;

/**
 * The headers a browser needs to keep Quarry's pages to themselves, on every response: a
 * Content-Security-Policy that runs only Quarry's own scripts (no inline script, no eval: charts use Vega's
 * expression interpreter), talks only to its own origin and cannot be framed; no MIME sniffing; no referrer
 * leaving the site; and HSTS once a response went over https (directly or through a proxy that says so).
 */
final class SecurityHeaders {

  static final long HSTS_MAX_AGE_SECONDS = 31_536_000;

  private final CSPHandler csp = CSPHandler.create()
      .setDirective("default-src", "'self'")
      .setDirective("script-src", "'self'")
      // Vega's SVG renderer and vega-embed set style attributes; styles cannot run code.
      .setDirective("style-src", "'self' 'unsafe-inline'")
      .setDirective("img-src", "'self' data:")
      .setDirective("connect-src", "'self'")
      .setDirective("object-src", "'none'")
      .setDirective("base-uri", "'self'")
      .setDirective("form-action", "'self'")
      .setDirective("frame-ancestors", "'none'");

  void handle(RoutingContext ctx) {
    ctx.response()
        .putHeader("X-Content-Type-Options", "nosniff")
        .putHeader("Referrer-Policy", "same-origin")
        .putHeader("X-Frame-Options", "DENY");
    if (Origins.secure(ctx.request())) {
      ctx.response().putHeader("Strict-Transport-Security", "max-age=" + HSTS_MAX_AGE_SECONDS + "; includeSubDomains");
    }
    csp.handle(ctx);
  }
}
