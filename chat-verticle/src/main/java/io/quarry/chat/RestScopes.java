package io.quarry.chat;

import io.quarry.bus.TokenScope;
import io.vertx.core.http.HttpMethod;
import java.util.regex.Pattern;

/**
 * What a REST request needs of an API token's scope ({@link TokenScope}): reading needs {@code read}; asking, going
 * on with or stopping an answer needs {@code chat}; anything else that changes or computes (conversations, datasets,
 * SQL, charts, exports) needs {@code query}. The tokens themselves ({@code /api/tokens}) are for a session only.
 */
final class RestScopes {

  private static final Pattern TURN = Pattern.compile("/api/conversations/[^/]+/(messages(/.*)?|stop)");
  private static final Pattern EXPORT = Pattern.compile("/api/results/[^/]+/export");

  /** Tokens are made, listed and revoked by their user, never by a token: a leaked one must not mint more. */
  static final String SESSION_ONLY = "API tokens are listed, made and revoked in a signed-in browser (the account"
      + " page) or with the token command, not with a token";
  private static final Pattern TOKENS = Pattern.compile("/api/tokens(/.*)?");

  private RestScopes() {
  }

  /** Paths no token may use, whatever its scope. */
  static boolean sessionOnly(String path) {
    return TOKENS.matcher(path).matches();
  }

  static TokenScope needed(HttpMethod method, String path) {
    if (TURN.matcher(path).matches() && method == HttpMethod.POST) {
      return TokenScope.CHAT;
    }
    boolean reads = method == HttpMethod.GET || method == HttpMethod.HEAD;
    return reads && !EXPORT.matcher(path).matches() ? TokenScope.READ : TokenScope.QUERY;
  }
}
