package io.quarry.bus;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * What a secret of a dataset's URL is, in one place: the query parameters that carry credentials (S3 SigV4 and V2,
 * GCS, Azure SAS, and the usual generic names) and the password of a {@code user:pass@} part. A URL exists in three
 * forms. The <em>shown</em> form, every such value replaced by {@value #REDACTED}, names and other parameters kept
 * so the user recognises the link: every page, event, prompt, export and log line shows this one. The <em>sealed</em>
 * form, each such value encrypted ({@link UrlSeal}): the bus carries it and storage keeps it, so neither holds a secret
 * in clear. The <em>open</em> form, the URL as pasted, exists only in the request to the origin.
 */
public final class UrlSecrets {

  public static final String REDACTED = "[redacted]";
  /** What {@link #expired} and a refusing origin say to the user. */
  public static final String EXPIRED = "The link has expired; paste a fresh one";

  /** Lower case; matched against a parameter's decoded name. */
  private static final Set<String> SECRET_PARAMS = Set.of(
      // S3 SigV4 and V2
      "x-amz-signature", "x-amz-credential", "x-amz-security-token", "signature", "awsaccesskeyid",
      // GCS
      "x-goog-signature", "x-goog-credential", "googleaccessid",
      // Azure SAS: the signature is its one credential; sv, se, sp... say what it allows and until when
      "sig",
      // generic
      "token", "access_token", "id_token", "refresh_token", "key", "api_key", "apikey", "api-key", "client_secret",
      "password", "secret", "auth");

  /** Parameters that sign a link rather than name its object: a fresh link for the same object differs in these. */
  private static final Set<String> SIGNING_PARAMS = Set.of("x-amz-algorithm", "x-amz-date", "x-amz-expires",
      "x-amz-signedheaders", "x-goog-algorithm", "x-goog-date", "x-goog-expires", "x-goog-signedheaders", "expires",
      "sv", "ss", "srt", "sp", "se", "st", "spr", "sr", "si", "skoid", "sktid", "skt", "ske", "sks", "skv", "sdd");

  private static final Pattern SEALED_VALUE = Pattern.compile("(?<=[=:])" + Pattern.quote(UrlSeal.PREFIX)
      + "[A-Za-z0-9_-]{38,}");
  private static final Pattern CLEAR_VALUE = Pattern.compile("([?&](?:" + String.join("|", SECRET_PARAMS.stream()
      .map(Pattern::quote).toList()) + ")=)(?!" + Pattern.quote(REDACTED) + ")[^&#\"'\\s<>\\\\]+",
      Pattern.CASE_INSENSITIVE);
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  private UrlSecrets() {
  }

  /** The form anyone may see: each secret value is {@value #REDACTED}, sealed or not. Null stays null. */
  public static String shown(String url) {
    return url == null ? null : rewrite(url, value -> REDACTED);
  }

  /**
   * {@code text} with every sealed value in it shown as {@value #REDACTED}: the last step of every answer, event, page
   * and prompt that leaves Quarry, so that no path that carries a dataset's URL (an error's details, a result's sources,
   * an export's metadata) can show its sealed form. A sealed value follows {@code =} or {@code :} and is at least as
   * long as a nonce and a tag; text without one is returned as it is, unscanned.
   */
  public static String shownIn(String text) {
    if (text == null) {
      return null;
    }
    String shown = text.contains(UrlSeal.PREFIX) ? SEALED_VALUE.matcher(text).replaceAll(REDACTED) : text;
    // Unsealed values (a configured cluster's, see UrlSeal) are found by their parameters' names instead.
    return UrlSeal.sealing() ? shown : CLEAR_VALUE.matcher(shown).replaceAll("$1" + REDACTED);
  }

  /** The form the bus carries and storage keeps: each secret value sealed under this cluster's key. */
  public static String sealed(String url) {
    return rewrite(url, value -> value.startsWith(UrlSeal.PREFIX) ? value : UrlSeal.seal(value));
  }

  /** The URL as pasted, for the request to its origin; {@link UrlSeal.Unsealable} when its key is not this one. */
  public static String opened(String url) {
    return url.contains(UrlSeal.PREFIX)
        ? rewrite(url, value -> value.startsWith(UrlSeal.PREFIX) ? UrlSeal.open(value) : value) : url;
  }

  /** Whether the URL carries a credential: a signed link to a private object, or a password. */
  public static boolean signed(String url) {
    if (url == null) {
      return false;
    }
    boolean[] found = {false};
    rewrite(url, value -> {
      found[0] = true;
      return value;
    });
    return found[0];
  }

  /**
   * The object a link names, without what signs it (its secrets, dates and permissions): two signed links to the same
   * object, one fresh and one expired, name the same one. Null for a link that is not signed.
   */
  public static String object(String url) {
    if (!signed(url)) {
      return null;
    }
    Parts parts = Parts.of(rewrite(url, value -> REDACTED));
    StringBuilder query = new StringBuilder();
    for (String pair : parts.query == null ? new String[0] : parts.query.split("&", -1)) {
      String name = name(pair);
      if (!SECRET_PARAMS.contains(name) && !SIGNING_PARAMS.contains(name)) {
        query.append(query.length() == 0 ? "" : "&").append(pair);
      }
    }
    String authority = parts.authority.substring(parts.authority.lastIndexOf('@') + 1);
    return parts.scheme + authority + parts.path + (query.length() == 0 ? "" : "?" + query);
  }

  /**
   * Whether the link itself says it expired before {@code now}: S3's {@code X-Amz-Date} plus {@code X-Amz-Expires}
   * (GCS's {@code X-Goog-} pair alike), S3 V2's and GCS V2's {@code Expires} (epoch seconds), Azure's {@code se}.
   */
  public static boolean expired(String url, Instant now) {
    return expiry(url).map(at -> at.isBefore(now)).orElse(false);
  }

  static Optional<Instant> expiry(String url) {
    Parts parts = Parts.of(url);
    if (parts.query == null) {
      return Optional.empty();
    }
    try {
      for (String prefix : new String[] {"x-amz-", "x-goog-"}) {
        String date = param(parts.query, prefix + "date");
        String expires = param(parts.query, prefix + "expires");
        if (date != null && expires != null) {
          return Optional.of(AMZ_DATE.parse(date, Instant::from).plusSeconds(Long.parseLong(expires)));
        }
      }
      String epoch = param(parts.query, "expires");
      if (epoch != null && epoch.matches("\\d{9,12}")) {
        return Optional.of(Instant.ofEpochSecond(Long.parseLong(epoch)));
      }
      String se = param(parts.query, "se");
      if (se != null) {
        return Optional.of(se.length() == 10 ? OffsetDateTime.parse(se + "T00:00:00Z").toInstant()
            : OffsetDateTime.parse(se).toInstant());
      }
    } catch (DateTimeParseException | NumberFormatException e) {
      // A link whose dates do not parse is left to its origin to judge.
    }
    return Optional.empty();
  }

  private static String param(String query, String wanted) {
    for (String pair : query.split("&", -1)) {
      if (name(pair).equals(wanted) && pair.contains("=")) {
        return decode(pair.substring(pair.indexOf('=') + 1));
      }
    }
    return null;
  }

  /** Each secret value, query's and password's, through {@code secret}; everything else byte for byte as it was. */
  private static String rewrite(String url, UnaryOperator<String> secret) {
    Parts parts = Parts.of(url);
    String authority = parts.authority;
    int at = authority.lastIndexOf('@');
    int colon = at < 0 ? -1 : authority.indexOf(':');
    if (colon >= 0 && colon < at) {
      authority = authority.substring(0, colon + 1) + secret.apply(authority.substring(colon + 1, at))
          + authority.substring(at);
    }
    String query = parts.query == null ? null : rewriteQuery(parts.query, secret);
    return parts.scheme + authority + parts.path + (query == null ? "" : "?" + query)
        + (parts.fragment == null ? "" : "#" + parts.fragment);
  }

  private static String rewriteQuery(String query, UnaryOperator<String> secret) {
    StringBuilder out = new StringBuilder();
    String[] pairs = query.split("&", -1);
    for (int i = 0; i < pairs.length; i++) {
      String pair = pairs[i];
      int eq = pair.indexOf('=');
      boolean hides = eq >= 0 && eq < pair.length() - 1 && SECRET_PARAMS.contains(name(pair));
      out.append(i == 0 ? "" : "&").append(hides ? pair.substring(0, eq + 1) + secret.apply(pair.substring(eq + 1))
          : pair);
    }
    return out.toString();
  }

  private static String name(String pair) {
    int eq = pair.indexOf('=');
    return decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }

  /** A URL cut where RFC 3986 cuts it, without decoding anything: {@code scheme://authority path ?query #fragment}. */
  private record Parts(String scheme, String authority, String path, String query, String fragment) {

    static Parts of(String url) {
      String fragment = null;
      int hash = url.indexOf('#');
      if (hash >= 0) {
        fragment = url.substring(hash + 1);
        url = url.substring(0, hash);
      }
      String query = null;
      int mark = url.indexOf('?');
      if (mark >= 0) {
        query = url.substring(mark + 1);
        url = url.substring(0, mark);
      }
      int slashes = url.indexOf("://");
      String scheme = slashes < 0 ? "" : url.substring(0, slashes + 3);
      String rest = url.substring(scheme.length());
      int slash = scheme.isEmpty() ? 0 : rest.indexOf('/') < 0 ? rest.length() : rest.indexOf('/');
      return new Parts(scheme, rest.substring(0, slash), rest.substring(slash), query, fragment);
    }
  }
}
