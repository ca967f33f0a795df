package io.quarry.chat;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;
import java.util.Set;

/**
 * Same-origin rules: the WebSocket upgrade needs an Origin equal to this server's own; a state-changing
 * request that names another Origin is refused (a browser always sends Origin across sites).
 */
final class Origins {

  private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

  private Origins() {
  }

  static boolean secure(HttpServerRequest request) {
    return request.isSSL() || "https".equalsIgnoreCase(request.getHeader("X-Forwarded-Proto"));
  }

  static boolean same(HttpServerRequest request, String origin) {
    String host = request.getHeader("Host");
    if (origin == null || host == null) {
      return false;
    }
    String scheme = secure(request) ? "https" : "http";
    return origin.toLowerCase(Locale.ROOT).equals((scheme + "://" + host).toLowerCase(Locale.ROOT));
  }

  /** Handler: refuses state-changing requests from another origin. */
  static void check(RoutingContext ctx) {
    String origin = ctx.request().getHeader("Origin");
    if (!SAFE.contains(ctx.request().method()) && origin != null && !same(ctx.request(), origin)) {
      HttpErrors.send(ctx, 403, "Requests from other sites are refused", null);
      return;
    }
    ctx.next();
  }
}
