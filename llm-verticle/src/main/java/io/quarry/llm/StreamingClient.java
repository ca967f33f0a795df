package io.quarry.llm;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * A model's streaming endpoint on Vert.x's non-blocking HTTP client: no thread per stream, each event handed on as it
 * arrives, cancellation by resetting the stream (an SDK's own client would block a thread per answer, or read ahead).
 * Failures before any event (rate limits, 5xx) are retried a configured number of times.
 */
final class StreamingClient {

  /**
   * @param url the endpoint, parsed once: parsing a URL per request costs class loading on the event loop the first
   *     time
   * @param headers the key's header among them
   * @param redactor what the server says goes through it before Quarry passes it on: the key it was sent, above all
   */
  record Settings(String url, Map<String, String> headers, ModelException.Who who, Redactor redactor,
      long idleTimeoutMs, int retries, long retryBackoffMs) {
  }

  private final Vertx vertx;
  private final Settings settings;
  private final HttpClient http;
  private final RequestOptions endpoint;

  StreamingClient(Vertx vertx, Settings settings) {
    this.vertx = vertx;
    this.settings = settings;
    this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(10_000),
        new PoolOptions().setHttp1MaxSize(512));
    this.endpoint = new RequestOptions().setAbsoluteURI(settings.url()).putHeader("Content-Type", "application/json");
    settings.headers().forEach(endpoint::putHeader);
  }

  /** {@code base} (with or without a closing slash) followed by {@code path}. */
  static String endpoint(String base, String path) {
    return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
  }

  Model.Call stream(JsonObject body, Handler<String> onData) {
    Promise<Void> done = Promise.promise();
    SseStream[] current = new SseStream[1];
    boolean[] cancelled = {false};
    attempt(body, onData, settings.retries(), current, cancelled).onComplete(done);
    return new Model.Call() {
      @Override
      public Future<Void> done() {
        return done.future();
      }

      @Override
      public void cancel() {
        cancelled[0] = true;
        if (current[0] != null) {
          current[0].cancel();
        }
      }
    };
  }

  private Future<Void> attempt(JsonObject body, Handler<String> onData, int retriesLeft, SseStream[] current,
      boolean[] cancelled) {
    SseStream stream = new SseStream(vertx, settings.who(), settings.redactor(), settings.idleTimeoutMs(), onData)
        .send(http, new RequestOptions(endpoint), body);
    current[0] = stream;
    return stream.done().recover(e -> {
      if (!cancelled[0] && retriesLeft > 0 && !stream.received() && e instanceof ModelException me && me.retryable()) {
        long backoff = settings.retryBackoffMs() * (settings.retries() - retriesLeft + 1);
        Promise<Void> later = Promise.promise();
        vertx.setTimer(Math.max(1, backoff), id -> attempt(body, onData, retriesLeft - 1, current, cancelled)
            .onComplete(later));
        return later.future();
      }
      return Future.failedFuture(e);
    });
  }

  Future<Void> close() {
    return http.close();
  }
}
