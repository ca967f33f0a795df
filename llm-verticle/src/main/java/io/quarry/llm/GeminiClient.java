package io.quarry.llm;

import com.google.genai.types.GenerateContentResponse;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/**
 * Gemini's REST/SSE API on Vert.x's non-blocking HTTP client: no thread per stream, each chunk handed
 * on as it arrives, cancellation by resetting the stream. Requests and responses use the SDK's types.
 * Failures before any chunk (rate limits, 5xx) are retried a configured number of times.
 */
final class GeminiClient {

  record Settings(String baseUrl, String apiKey, String model, long idleTimeoutMs, int retries, long retryBackoffMs) {
  }

  /** A running call: cancel it, or wait for its end. */
  interface Call {
    Future<Void> done();

    void cancel();
  }

  private final Vertx vertx;
  private final Settings settings;
  private final HttpClient http;
  private final RequestOptions endpoint;

  GeminiClient(Vertx vertx, Settings settings) {
    this.vertx = vertx;
    this.settings = settings;
    this.http = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true).setConnectTimeout(10_000),
        new PoolOptions().setHttp1MaxSize(512));
    this.endpoint = endpoint(settings);
  }

  /** Parsed once: parsing a URL per request costs class loading on the event loop the first time. */
  private static RequestOptions endpoint(Settings settings) {
    String base = settings.baseUrl().endsWith("/") ? settings.baseUrl().substring(0, settings.baseUrl().length() - 1)
        : settings.baseUrl();
    return new RequestOptions()
        .setAbsoluteURI(base + "/v1beta/models/" + settings.model() + ":streamGenerateContent?alt=sse")
        .putHeader("x-goog-api-key", settings.apiKey())
        .putHeader("Content-Type", "application/json");
  }

  String model() {
    return settings.model();
  }

  Call stream(JsonObject body, Handler<GenerateContentResponse> onChunk) {
    Promise<Void> done = Promise.promise();
    GeminiStream[] current = new GeminiStream[1];
    boolean[] cancelled = {false};
    attempt(body, onChunk, settings.retries(), current, cancelled).onComplete(done);
    return new Call() {
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

  private Future<Void> attempt(JsonObject body, Handler<GenerateContentResponse> onChunk, int retriesLeft,
      GeminiStream[] current, boolean[] cancelled) {
    GeminiStream stream = new GeminiStream(vertx, settings.idleTimeoutMs(), onChunk).send(http, options(), body);
    current[0] = stream;
    return stream.done().recover(e -> {
      if (!cancelled[0] && retriesLeft > 0 && !stream.received() && e instanceof GeminiException ge && ge.retryable()) {
        long backoff = settings.retryBackoffMs() * (settings.retries() - retriesLeft + 1);
        Promise<Void> later = Promise.promise();
        vertx.setTimer(Math.max(1, backoff), id -> attempt(body, onChunk, retriesLeft - 1, current, cancelled)
            .onComplete(later));
        return later.future();
      }
      return Future.failedFuture(e);
    });
  }

  private RequestOptions options() {
    return new RequestOptions(endpoint);
  }

  Future<Void> close() {
    return http.close();
  }
}
