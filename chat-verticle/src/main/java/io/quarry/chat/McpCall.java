package io.quarry.chat;

import io.quarry.bus.TokenScope;
import io.quarry.bus.User;
import io.vertx.core.json.JsonObject;
import java.util.function.Consumer;

/**
 * One MCP request in flight: whose it is (the token's user and scope), and how it tells its client of progress. A
 * request whose client gave no {@code progressToken} is told of nothing.
 */
final class McpCall {

  final User user;
  final TokenScope scope;
  private final Object progressToken;
  private final Consumer<JsonObject> notifications;
  private Runnable cancel = () -> { };

  McpCall(User user, TokenScope scope, Object progressToken, Consumer<JsonObject> notifications) {
    this.user = user;
    this.scope = scope;
    this.progressToken = progressToken;
    this.notifications = notifications;
  }

  String userId() {
    return user.id();
  }

  /** {@code notifications/progress}: {@code progress} grows with every one, {@code message} says what is new. */
  void progress(long progress, String message) {
    if (progressToken != null) {
      notifications.accept(JsonRpc.notification("notifications/progress", new JsonObject()
          .put("progressToken", progressToken).put("progress", progress).put("message", message)));
    }
  }

  /** What to do when the client cancels this request ({@code notifications/cancelled}). */
  void onCancel(Runnable action) {
    cancel = action;
  }

  void cancel() {
    cancel.run();
  }
}
