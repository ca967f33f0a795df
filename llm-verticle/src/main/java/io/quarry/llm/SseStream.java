package io.quarry.llm;

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
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import io.quarry.bus.Sizes;
import io.quarry.bus.UrlSecrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streamed model call over Server-Sent Events (Gemini's {@code streamGenerateContent?alt=sse}, OpenAI's Chat
 * Completions with {@code stream: true}). Every event's data is handed on the moment the event is complete — no
 * read-ahead; OpenAI's closing {@code [DONE]} is not. An error — an HTTP status, or an {@code {"error": ...}} event
 * (both providers' shape) — fails the call; so does the handler's {@link ModelException}. An idle timer fails it when
 * the model goes quiet; {@link #cancel()} resets the stream at once.
 */
final class SseStream {

  private static final Logger log = LoggerFactory.getLogger(SseStream.class);
  private static final String DONE = "[DONE]";

  private final Vertx vertx;
  private final ModelException.Who who;
  private final Redactor redactor;
  private final Handler<String> onData;
  private final long idleTimeoutMs;
  private final Promise<Void> done = Promise.promise();
  private final StringBuilder pending = new StringBuilder();
  private HttpClientRequest request;
  private long idleTimer = -1;
  /** When the server last sent anything: the idle timer reads it as it fires, rather than being set anew every chunk. */
  private long heardAt;
  private boolean received;
  private boolean cancelled;

  SseStream(Vertx vertx, ModelException.Who who, Redactor redactor, long idleTimeoutMs, Handler<String> onData) {
    this.vertx = vertx;
    this.who = who;
    this.redactor = redactor;
    this.idleTimeoutMs = idleTimeoutMs;
    this.onData = onData;
  }

  /** Completes at the end of the stream; fails with a {@link ModelException}. */
  Future<Void> done() {
    return done.future();
  }

  /** Whether any event arrived: a failure after that must not be retried, the answer has begun. */
  boolean received() {
    return received;
  }

  SseStream send(HttpClient client, RequestOptions options, JsonObject body) {
    heardAt = System.nanoTime();
    idleTimer = idleAfter(idleTimeoutMs);
    client.request(options.setMethod(HttpMethod.POST))
        .compose(req -> {
          request = req;
          if (cancelled) {
            req.reset();
          }
          // The model sees dataset URLs as a page does: secrets redacted, whatever carried them into the prompt.
          return req.send(Buffer.buffer(UrlSecrets.shownIn(body.encode())));
        })
        .onSuccess(this::onResponse)
        .onFailure(e -> fail(failure(0, String.valueOf(e.getMessage()), null, false)));
    return this;
  }

  void cancel() {
    cancelled = true;
    fail(failure(0, "cancelled", null, false));
    if (request != null) {
      request.reset();
    }
  }

  private void onResponse(HttpClientResponse response) {
    if (response.statusCode() != 200) {
      response.body()
          .onSuccess(body -> fail(error(response.statusCode(), body)))
          .onFailure(e -> fail(failure(response.statusCode(), String.valueOf(e.getMessage()), null, false)));
      return;
    }
    response.handler(this::onData);
    response.exceptionHandler(e -> fail(failure(0, "The stream broke: " + e.getMessage(), null, false)));
    response.endHandler(v -> {
      drain(true);
      finish();
    });
  }

  private void onData(Buffer data) {
    heardAt = System.nanoTime();
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
    String data = dataOf(event);
    if (data.isEmpty() || DONE.equals(data)) {
      return;
    }
    // Only an event that names "error" can be one: the others are read once, by the handler, not parsed here first.
    if (data.contains("\"error\"") && failedBy(data)) {
      return;
    }
    boolean before = received;
    received = true;
    try {
      onData.handle(data);
    } catch (ModelException e) {
      fail(e);
    } catch (RuntimeException e) {
      if (!isJson(data)) {
        received = before; // nothing of the answer arrived
        fail(ModelException.unreadable(who, "an event that is not JSON"));
        return;
      }
      // An event of a shape the SDK cannot read: the answer fails now, not at the idle timeout. Operators hear of it
      // (a provider that changed its API, or Quarry's own fault); the event itself, the model's words, only at debug.
      // Both lines without the key a server may have put in its event (the SDK's words may quote the event).
      log.warn("{} sent an event Quarry could not read: {}", who.speaker(), redactor.apply(e.toString()));
      if (log.isDebugEnabled()) {
        log.debug("The event: {}", redactor.apply(data), redactor.scrub(e));
      }
      fail(ModelException.unreadable(who, "an event Quarry could not read"));
    }
  }

  /** An event's data: its {@code data:} lines' values, joined. */
  private static String dataOf(String event) {
    if (event.startsWith("data:") && event.indexOf('\n') < 0) {
      return event.substring(5).strip();
    }
    StringBuilder data = new StringBuilder();
    event.lines().filter(line -> line.startsWith("data:")).forEach(line -> data.append(line.substring(5).strip()));
    return data.toString();
  }

  /** Whether the event is {@code {"error": {...}}} (both providers' shape), which fails the call; or not JSON at all. */
  private boolean failedBy(String data) {
    JsonObject json;
    try {
      json = new JsonObject(data);
    } catch (DecodeException e) {
      fail(ModelException.unreadable(who, "an event that is not JSON"));
      return true;
    }
    if (json.getValue("error") instanceof JsonObject error) {
      fail(failure(error.getValue("code") instanceof Integer status ? status : 0, error.getString("message", "error"),
          error.getValue("code") instanceof String code ? code : null, false));
      return true;
    }
    return false;
  }

  private static boolean isJson(String data) {
    try {
      Json.decodeValue(data);
      return true;
    } catch (DecodeException e) {
      return false;
    }
  }

  private long idleAfter(long delayMs) {
    return vertx.setTimer(delayMs, id -> {
      long quietMs = (System.nanoTime() - heardAt) / 1_000_000;
      if (quietMs < idleTimeoutMs) {
        idleTimer = idleAfter(idleTimeoutMs - quietMs);
        return;
      }
      // The reason is settled first: resetting makes the stream report a reset of its own.
      fail(failure(0, who.speaker() + " did not respond within " + Sizes.seconds(idleTimeoutMs), null, true));
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

  /**
   * Every failure is made here, and what the server (or the transport) said is redacted here, once: from here its
   * words reach the user, the stored reply, the bus and the log.
   */
  private ModelException failure(int status, String message, String code, boolean timedOut) {
    return new ModelException(who, status, redactor.apply(message), code, timedOut);
  }

  private void fail(ModelException e) {
    if (idleTimer >= 0) {
      vertx.cancelTimer(idleTimer);
    }
    done.tryFail(e);
  }

  /** Both providers answer an error with {@code {"error": {"message": ..., "code": ...}}}; OpenAI's code is a word. */
  private ModelException error(int status, Buffer body) {
    try {
      JsonObject error = new JsonObject(body).getJsonObject("error", new JsonObject());
      return failure(status, error.getString("message", body.toString()),
          error.getValue("code") instanceof String code ? code : null, false);
    } catch (DecodeException | ClassCastException e) {
      return failure(status, body.toString(), null, false);
    }
  }
}
