package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.vertx.core.json.JsonObject;
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
    String userId = Auth.user(ctx).id();
    llm.start(userId, ctx.pathParam("id"), content)
        .onSuccess(started -> Replies.json(ctx, 202, started))
        .onFailure(e -> {
          if (Failure.classify(e) != Failure.RATE_LIMITED) {
            HttpErrors.respond(ctx, e);
            return;
          }
          // The edge tells when asking works again, as the 429's contract says.
          llm.usage(userId)
              .onSuccess(usage -> Replies.json(ctx, 429, new JsonObject().put("error", Failure.messageOf(e))
                  .put("resets_in_seconds", usage.getLong("resets_in_seconds"))))
              .onFailure(x -> HttpErrors.respond(ctx, e));
        });
  }

  private void stop(RoutingContext ctx) {
    Replies.send(ctx, 200, llm.stop(Auth.user(ctx).id(), ctx.pathParam("id")));
  }
}
