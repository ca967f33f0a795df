package io.quarry.chat;

import io.quarry.bus.TokenScope;
import io.vertx.core.http.HttpMethod;
import java.util.regex.Pattern;

/**
 * What a REST request needs of an API token's scope ({@link TokenScope}): reading needs {@code read}; asking, going
 * on with or stopping an answer needs {@code chat}; anything else that changes or computes (conversations, datasets,
 * SQL, charts, exports) needs {@code query}.
 */
final class RestScopes {

  private static final Pattern TURN = Pattern.compile("/api/conversations/[^/]+/(messages(/.*)?|stop)");
  private static final Pattern EXPORT = Pattern.compile("/api/results/[^/]+/export");

  private RestScopes() {
  }

  static TokenScope needed(HttpMethod method, String path) {
    if (TURN.matcher(path).matches() && method == HttpMethod.POST) {
      return TokenScope.CHAT;
    }
    boolean reads = method == HttpMethod.GET || method == HttpMethod.HEAD;
    return reads && !EXPORT.matcher(path).matches() ? TokenScope.READ : TokenScope.QUERY;
  }
}
