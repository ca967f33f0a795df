package io.quarry.chat;

import io.quarry.bus.BusFailure;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmOps;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.atomic.AtomicBoolean;

/** Asking a question (the answer streams over the WebSocket), continuing a cut-off answer, and stopping an answer. */
final class MessageApi {

  private final LlmClient llm;
  private final AtomicBoolean draining;
  private final FollowUpQuestions followUps;

  /** {@code draining}: the node is stopping, and new questions go elsewhere (503). */
  MessageApi(LlmClient llm, AtomicBoolean draining, FollowUpQuestions followUps) {
    this.llm = llm;
    this.draining = draining;
    this.followUps = followUps;
  }

  void mount(Router router) {
    router.post("/api/conversations/:id/messages").handler(this::send);
    router.post("/api/conversations/:id/messages/:mid/continue").handler(this::continueAnswer);
    router.post("/api/conversations/:id/messages/:mid/follow-ups").handler(this::followUps);
    router.post("/api/conversations/:id/stop").handler(this::stop);
    Routes.allowOnly(router, "/api/conversations/:id/messages", HttpMethod.POST);
    Routes.allowOnly(router, "/api/conversations/:id/messages/:mid/continue", HttpMethod.POST);
    Routes.allowOnly(router, "/api/conversations/:id/messages/:mid/follow-ups", HttpMethod.POST);
    Routes.allowOnly(router, "/api/conversations/:id/stop", HttpMethod.POST);
  }

  private void send(RoutingContext ctx) {
    if (draining.get()) {
      HttpErrors.send(ctx, 503, LlmClient.RESTARTING, null);
      return;
    }
    String content = Bodies.requiredString(Bodies.object(ctx), "content", LlmClient.MAX_MESSAGE_CHARS);
    String userId = Auth.user(ctx).id();
    llm.start(userId, ctx.pathParam("id"), content)
        .onSuccess(started -> Replies.json(ctx, 202, started.toJson()))
        .onFailure(e -> refused(ctx, e));
  }

  /** The rest of a cut-off answer streams over the WebSocket under the same message id; refused like a question. */
  private void continueAnswer(RoutingContext ctx) {
    if (draining.get()) {
      HttpErrors.send(ctx, 503, LlmClient.RESTARTING, null);
      return;
    }
    llm.continueTurn(Auth.user(ctx).id(), ctx.pathParam("id"), ctx.pathParam("mid"))
        .onSuccess(continued -> Replies.json(ctx, 202, continued.toJson()))
        .onFailure(e -> refused(ctx, e));
  }

  private void followUps(RoutingContext ctx) {
    followUps.ask(Auth.user(ctx).id(), ctx.pathParam("id"), ctx.pathParam("mid"))
        .onSuccess(questions -> Replies.json(ctx, 200, questions.toJson()))
        .onFailure(e -> refused(ctx, e));
  }

  /** A 429 tells when asking works again, as its contract says: the refusal carries it. */
  private static void refused(RoutingContext ctx, Throwable e) {
    BusFailure failure = BusFailure.of(e);
    if (failure.failure() != Failure.RATE_LIMITED) {
      HttpErrors.respond(ctx, e);
      return;
    }
    Replies.json(ctx, 429, new JsonObject().put("error", failure.message())
        .put(BusFailure.RESETS_IN_SECONDS, failure.resetsInSeconds().orElse(0)));
  }

  private void stop(RoutingContext ctx) {
    Replies.send(ctx, 200, llm.stop(Auth.user(ctx).id(), ctx.pathParam("id")).map(LlmOps.Stopped::toJson));
  }
}
