package io.quarry.chat;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Device cookies (OWASP's answer to lock-out by strangers): a browser that signs in to an account gets
 * {@code quarry_device}, a random device id and an HMAC binding it to that account, which only a holder of this
 * node's key can make. Its later sign-ins to that account are not held back by the account's back-off, which
 * anyone's failures feed; they back off per device instead (and per address, like everyone's). A cookie names
 * one account, the browser's last; another account's, or an altered one, is no cookie at all.
 */
final class Devices {

  static final String COOKIE = "quarry_device";
  static final Duration LIFETIME = Duration.ofDays(365);
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{22}");
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();

  private final SecretKeySpec key;

  Devices(byte[] key) {
    this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
  }

  /**
   * A key of this node's own, new at every start: the web nodes share no secret to derive one from, so a device
   * cookie is honoured only by the node that set it, until that restarts; elsewhere its browser is like any other
   * until its next sign-in there.
   */
  static Devices withRandomKey() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return new Devices(key);
  }

  /** The device id of the request's cookie when this node made it for {@code email}'s account; null otherwise. */
  String trusted(RoutingContext ctx, String email) {
    Cookie cookie = ctx.request().getCookie(COOKIE);
    String[] parts = cookie == null ? new String[0] : cookie.getValue().split("\\.", -1);
    if (parts.length != 2 || !ID.matcher(parts[0]).matches()) {
      return null;
    }
    byte[] expected = mac(parts[0], email).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, parts[1].getBytes(StandardCharsets.US_ASCII)) ? parts[0] : null;
  }

  /** After a sign-in as {@code email}: this browser is now one of its account's devices, for a year. */
  void remember(RoutingContext ctx, String email) {
    byte[] bytes = new byte[16];
    RANDOM.nextBytes(bytes);
    String id = BASE64.encodeToString(bytes);
    ctx.response().addCookie(Cookie.cookie(COOKIE, id + "." + mac(id, email)).setPath("/").setHttpOnly(true)
        .setSameSite(CookieSameSite.LAX).setSecure(Origins.secure(ctx.request())).setMaxAge(LIFETIME.toSeconds()));
  }

  /**
   * The account an email names, as storage compares them: ASCII letters without case (SQLite's NOCASE; PostgreSQL
   * ignores more), so emails that are one account here are one account there too, and no two accounts share one.
   */
  private static String account(String email) {
    StringBuilder folded = new StringBuilder(email.length());
    email.chars().forEach(c -> folded.append((char) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c)));
    return folded.toString();
  }

  private String mac(String id, String email) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      byte[] account256 = MessageDigest.getInstance("SHA-256").digest(account(email).getBytes(StandardCharsets.UTF_8));
      mac.update(id.getBytes(StandardCharsets.US_ASCII));
      return BASE64.encodeToString(mac.doFinal(account256));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
