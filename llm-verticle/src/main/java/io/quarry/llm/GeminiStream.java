package io.quarry.llm;

import com.google.genai.types.GenerateContentResponse;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.quarry.bus.Sizes;

/**
 * One streamed {@code streamGenerateContent} call. Every Server-Sent Event is handed on the moment it
 * is complete — no read-ahead — parsed with the SDK's {@link GenerateContentResponse#fromJson}. An idle
 * timer fails the call when Gemini goes quiet; {@link #cancel()} resets the stream at once.
 */
final class GeminiStream {

  private final Vertx vertx;
  private final Handler<GenerateContentResponse> onChunk;
  private final long idleTimeoutMs;
  private final Promise<Void> done = Promise.promise();
  private final StringBuilder pending = new StringBuilder();
  private HttpClientRequest request;
  private long idleTimer = -1;
  private boolean received;
  private boolean cancelled;

  GeminiStream(Vertx vertx, long idleTimeoutMs, Handler<GenerateContentResponse> onChunk) {
    this.vertx = vertx;
    this.idleTimeoutMs = idleTimeoutMs;
    this.onChunk = onChunk;
  }

  /** Completes at the end of the stream; fails with a {@link GeminiException}. */
  Future<Void> done() {
    return done.future();
  }

  /** Whether any event arrived: a failure after that must not be retried, the answer has begun. */
  boolean received() {
    return received;
  }

  GeminiStream send(HttpClient client, RequestOptions options, JsonObject body) {
    armIdleTimer();
    client.request(options.setMethod(HttpMethod.POST))
        .compose(req -> {
          request = req;
          if (cancelled) {
            req.reset();
          }
          return req.send(body.toBuffer());
        })
        .onSuccess(this::onResponse)
        .onFailure(e -> fail(new GeminiException(0, String.valueOf(e.getMessage()), false)));
    return this;
  }

  void cancel() {
    cancelled = true;
    fail(new GeminiException(0, "cancelled", false));
    if (request != null) {
      request.reset();
    }
  }

  private void onResponse(HttpClientResponse response) {
    if (response.statusCode() != 200) {
      response.body()
          .onSuccess(body -> fail(new GeminiException(response.statusCode(), errorMessage(body), false)))
          .onFailure(e -> fail(new GeminiException(response.statusCode(), String.valueOf(e.getMessage()), false)));
      return;
    }
    response.handler(this::onData);
    response.exceptionHandler(e -> fail(new GeminiException(0, "The stream broke: " + e.getMessage(), false)));
    response.endHandler(v -> {
      drain(true);
      finish();
    });
  }

  private void onData(Buffer data) {
    armIdleTimer();
    pending.append(data.toString());
    drain(false);
  }

  /** Hands on every complete event; at the end of the stream, whatever is left too. */
  private void drain(boolean atEnd) {
    while (!done.future().isComplete()) {
      int boundary = boundary();
      if (boundary < 0 && !(atEnd && !pending.toString().isBlank())) {
        return;
      }
      int end = boundary < 0 ? pending.length() : boundary;
      String event = pending.substring(0, end);
      pending.delete(0, boundary < 0 ? pending.length() : end + separatorLength(end));
      onEvent(event);
    }
  }

  private int boundary() {
    int crlf = pending.indexOf("\r\n\r\n");
    int lf = pending.indexOf("\n\n");
    return crlf < 0 ? lf : lf < 0 ? crlf : Math.min(crlf, lf);
  }

  private int separatorLength(int at) {
    return pending.indexOf("\r\n\r\n", at) == at ? 4 : 2;
  }

  private void onEvent(String event) {
    StringBuilder data = new StringBuilder();
    event.lines().filter(line -> line.startsWith("data:")).forEach(line -> data.append(line.substring(5).strip()));
    if (data.length() == 0) {
      return;
    }
    JsonObject json;
    try {
      json = new JsonObject(data.toString());
    } catch (DecodeException e) {
      fail(new GeminiException(0, "Gemini sent an event that is not JSON", false));
      return;
    }
    if (json.containsKey("error")) {
      JsonObject error = json.getJsonObject("error", new JsonObject());
      fail(new GeminiException(error.getInteger("code", 500), error.getString("message", "error"), false));
      return;
    }
    received = true;
    onChunk.handle(GenerateContentResponse.fromJson(data.toString()));
  }

  private void armIdleTimer() {
    if (idleTimer >= 0) {
      vertx.cancelTimer(idleTimer);
    }
    idleTimer = vertx.setTimer(idleTimeoutMs, id -> {
      // The reason is settled first: resetting makes the stream report a reset of its own.
      fail(new GeminiException(0, "Gemini did not respond within " + Sizes.seconds(idleTimeoutMs), true));
      if (request != null) {
        request.reset();
      }
    });
  }

  private void finish() {
    if (idleTimer >= 0) {
      vertx.cancelTimer(idleTimer);
    }
    done.tryComplete();
  }

  private void fail(GeminiException e) {
    if (idleTimer >= 0) {
      vertx.cancelTimer(idleTimer);
    }
    done.tryFail(e);
  }

  private static String errorMessage(Buffer body) {
    try {
      return new JsonObject(body).getJsonObject("error", new JsonObject()).getString("message", body.toString());
    } catch (DecodeException | ClassCastException e) {
      return body.toString();
    }
  }
}
