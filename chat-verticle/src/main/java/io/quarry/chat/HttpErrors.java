package io.quarry.chat;

import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where bus failures become HTTP responses: {@code {"error": ..., "details": ...}},
 * never a stack trace.
 */
final class HttpErrors {

  private static final Logger log = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {
  }

  static void respond(RoutingContext ctx, Throwable failure) {
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    Failure kind = Failure.classify(failure);
    String message = failure.getMessage();
    if (failure instanceof ReplyException re && re.failureType() != ReplyFailure.RECIPIENT_FAILURE) {
      log.warn("{} {}: {}", ctx.request().method(), ctx.request().path(), message);
      message = re.failureType() == ReplyFailure.NO_HANDLERS
          ? "Service unavailable, try again shortly" : "Service timed out, try again shortly";
    } else if (kind == Failure.INTERNAL && !(failure instanceof QuarryException)
        && !(failure instanceof ReplyException)) {
      log.error("{} {} failed", ctx.request().method(), ctx.request().path(), failure);
      message = "Internal error";
    }
    send(ctx, kind.code(), message, null);
  }

  static void send(RoutingContext ctx, int status, String error, String details) {
    JsonObject body = new JsonObject().put("error", error);
    if (details != null) {
      body.put("details", details);
    }
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(body.encode());
  }

  /** Router-level errors (no route, wrong method, oversized body, uncaught failure) in the same format. */
  static void routerError(RoutingContext ctx) {
    int status = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
    if (ctx.failure() != null && !(ctx.failure() instanceof io.vertx.ext.web.handler.HttpException)) {
      respond(ctx, ctx.failure());
      return;
    }
    String message = switch (status) {
      case 404 -> "Not found";
      case 405 -> "Method " + ctx.request().method() + " is not allowed on " + ctx.request().path();
      case 413 -> "Request body is too large";
      case 400 -> "Bad request";
      default -> "Internal error";
    };
    send(ctx, status, message, null);
  }
}
