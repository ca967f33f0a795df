package io.quarry.chat;

import io.quarry.bus.UrlSecrets;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where bus failures become HTTP responses: {@code {"error": ..., "details": ...}},
 * never a stack trace.
 */
final class HttpErrors {

  static final String BAD_HOST = "The Host header must be this server's name and port, such as 127.0.0.1:8080";
  private static final Logger log = LoggerFactory.getLogger(HttpErrors.class);

  private HttpErrors() {
  }

  static void respond(RoutingContext ctx, Throwable failure) {
    respond(ctx, failure, false);
  }

  /** As {@link #respond}, adding the structured {@code error_type} of a query failure. */
  static void respondQuery(RoutingContext ctx, Throwable failure) {
    respond(ctx, failure, true);
  }

  private static void respond(RoutingContext ctx, Throwable failure, boolean withType) {
    if (clientGone(ctx, failure)) {
      return;
    }
    if (ctx.response().headWritten()) {
      ctx.response().reset();
      return;
    }
    Failure kind = Failure.classify(failure);
    Said said = said(failure, ctx.request().method() + " " + ctx.request().path());
    JsonObject body = body(said.message(), said.details());
    // A conversation that is not yours is as absent as one that does not exist: nothing about a query to type.
    if (withType && kind != Failure.NOT_FOUND && kind != Failure.UNAUTHORIZED) {
      body.put("error_type", kind.errorType());
    }
    reply(ctx, status(kind), body);
  }

  /** What a caller is told of a failure: nothing of a bug or of the bus's inner workings, which go to the log. */
  record Said(String message, String details) {
  }

  /** {@code what}: the request that failed, for the log. */
  static Said said(Throwable failure, String what) {
    if (failure instanceof ReplyException re && re.failureType() != ReplyFailure.RECIPIENT_FAILURE) {
      log.warn("{}: {}", what, Failure.messageOf(failure));
      return new Said(re.failureType() == ReplyFailure.NO_HANDLERS
          ? "Service unavailable, try again shortly" : "Service timed out, try again shortly", null);
    }
    if (Failure.classify(failure) == Failure.INTERNAL && !(failure instanceof QuarryException)
        && !(failure instanceof ReplyException)) {
      log.error("{} failed", what, failure);
      return new Said("Internal error", null);
    }
    return new Said(Failure.messageOf(failure), Failure.detailsOf(failure));
  }

  /** HTTP status of a domain failure: a wrong SQL statement is the client's error, like any validation. */
  static int status(Failure kind) {
    return kind == Failure.SQL ? 400 : kind.code();
  }

  static void send(RoutingContext ctx, int status, String error, String details) {
    reply(ctx, status, body(error, details));
  }

  private static JsonObject body(String error, String details) {
    JsonObject body = new JsonObject().put("error", error);
    if (details != null) {
      body.put("details", details);
    }
    return body;
  }

  private static void reply(RoutingContext ctx, int status, JsonObject body) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/json").end(UrlSecrets.shownIn(body.encode()));
  }

  /** A client that went away mid-request is nobody's error and has nobody to answer. */
  private static boolean clientGone(RoutingContext ctx, Throwable failure) {
    if (!ctx.response().closed() && !(failure instanceof HttpClosedException)) {
      return false;
    }
    log.debug("{} {}: the client went away", ctx.request().method(), ctx.request().path());
    return true;
  }

  /** Router-level errors (no route, wrong method, oversized body, uncaught failure) in the same format. */
  static void routerError(RoutingContext ctx) {
    if (clientGone(ctx, ctx.failure())) {
      return;
    }
    int status = ctx.statusCode() < 400 ? 500 : ctx.statusCode();
    // The router's own refusals of a malformed request (a Host such as 127.0.0.1:8080@evil) are 4xx with a
    // VertxException: the client's error, not ours.
    boolean refused = status < 500 && !(ctx.failure() instanceof QuarryException);
    if (ctx.failure() != null && !(ctx.failure() instanceof io.vertx.ext.web.handler.HttpException) && !refused) {
      respond(ctx, ctx.failure());
      return;
    }
    String message = switch (status) {
      case 404 -> "Not found";
      case 405 -> "Method " + ctx.request().method() + " is not allowed on " + ctx.request().path();
      case 413 -> "Request body is too large";
      case 400 -> ctx.request().authority() == null ? BAD_HOST : "Bad request";
      default -> "Internal error";
    };
    send(ctx, status, message, null);
  }
}
