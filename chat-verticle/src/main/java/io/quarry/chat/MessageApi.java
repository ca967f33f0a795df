package io.quarry.chat;

import io.quarry.bus.LlmClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/** Asking a question (the answer streams over the WebSocket) and stopping an answer. */
final class MessageApi {

  private final LlmClient llm;

  MessageApi(LlmClient llm) {
    this.llm = llm;
  }

  void mount(Router router) {
    router.post("/api/conversations/:id/messages").handler(this::send);
    router.post("/api/conversations/:id/stop").handler(this::stop);
    Routes.allowOnly(router, "/api/conversations/:id/messages", HttpMethod.POST);
    Routes.allowOnly(router, "/api/conversations/:id/stop", HttpMethod.POST);
  }

  private void send(RoutingContext ctx) {
    String content = Bodies.requiredString(Bodies.object(ctx), "content", LlmClient.MAX_MESSAGE_CHARS);
    Replies.send(ctx, 202, llm.start(Auth.user(ctx).id(), ctx.pathParam("id"), content));
  }

  private void stop(RoutingContext ctx) {
    Replies.send(ctx, 200, llm.stop(Auth.user(ctx).id(), ctx.pathParam("id")));
  }
}
