package io.quarry.chat;

import io.quarry.bus.Sha256;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

/**
 * Session tokens: 256 random bits in an HttpOnly, SameSite=Lax cookie (Secure over https); only their
 * SHA-256 is stored, so a copy of the database opens no session.
 */
final class Sessions {

  static final String COOKIE = "quarry_session";
  static final Duration LIFETIME = Duration.ofDays(7);
  private static final SecureRandom RANDOM = new SecureRandom();

  private Sessions() {
  }

  static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  static String hash(String token) {
    return Sha256.hex(token);
  }

  static String token(RoutingContext ctx) {
    Cookie cookie = ctx.request().getCookie(COOKIE);
    return cookie == null || cookie.getValue().isBlank() ? null : cookie.getValue();
  }

  static void set(RoutingContext ctx, String token) {
    ctx.response().addCookie(cookie(ctx, token).setMaxAge(LIFETIME.toSeconds()));
  }

  static void clear(RoutingContext ctx) {
    ctx.response().addCookie(cookie(ctx, "").setMaxAge(0));
  }

  private static Cookie cookie(RoutingContext ctx, String value) {
    return Cookie.cookie(COOKIE, value).setPath("/").setHttpOnly(true).setSameSite(CookieSameSite.LAX)
        .setSecure(Origins.secure(ctx.request()));
  }
}
