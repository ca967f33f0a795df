package io.quarry.testing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Gemini-compatible server on 127.0.0.1 speaking what Quarry calls:
 * {@code POST /v1beta/models/{model}:streamGenerateContent?alt=sse}, key in {@code x-goog-api-key},
 * Server-Sent Events of {@code GenerateContentResponse} JSON. Each request is answered by the next
 * enqueued {@link Script}; every request is recorded so tests can assert what was sent.
 */
public final class FakeGemini implements FakeModel<FakeGemini.Request> {

  private static final Pattern PATH = Pattern.compile("/v1beta/models/([^:/]+):streamGenerateContent");
  private static final String TOO_MANY_TOKENS =
      "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).";

  /** One recorded request. */
  public record Request(String model, String apiKey, JsonObject body, long receivedNanos) implements FakeModel.Request {

    public JsonArray contents() {
      return body.getJsonArray("contents", new JsonArray());
    }

    @Override
    public String systemText() {
      JsonObject instruction = body.getJsonObject("systemInstruction", new JsonObject());
      StringBuilder text = new StringBuilder();
      instruction.getJsonArray("parts", new JsonArray()).forEach(p -> text.append(((JsonObject) p).getString("text", "")));
      return text.toString();
    }

    /** Every functionResponse part sent, in order. */
    @Override
    public List<JsonObject> functionResponses() {
      List<JsonObject> responses = new ArrayList<>();
      contents().forEach(c -> ((JsonObject) c).getJsonArray("parts", new JsonArray()).forEach(p -> {
        JsonObject part = (JsonObject) p;
        if (part.containsKey("functionResponse")) {
          responses.add(part.getJsonObject("functionResponse"));
        }
      }));
      return responses;
    }

    /** The text parts of each user content that has any, joined. */
    @Override
    public List<String> userTexts() {
      List<String> texts = new ArrayList<>();
      contents().forEach(c -> {
        JsonObject content = (JsonObject) c;
        StringBuilder text = new StringBuilder();
        content.getJsonArray("parts", new JsonArray()).forEach(p -> text.append(((JsonObject) p).getString("text", "")));
        if ("user".equals(content.getString("role")) && !text.isEmpty()) {
          texts.add(text.toString());
        }
      });
      return texts;
    }
  }

  /** What one response does, step by step. */
  public static final class Script implements FakeModel.Script {
    private final List<Step> steps = new ArrayList<>();
    final List<Long> sentNanos = Collections.synchronizedList(new ArrayList<>());
    final Promise<Void> closed = Promise.promise();

    private sealed interface Step permits Chunk, Pause, Gate, Stall, HttpError, HangUp {
    }

    private record Chunk(JsonObject json) implements Step {
    }

    private record Pause(long ms) implements Step {
    }

    private record Gate(String name) implements Step {
    }

    private record Stall() implements Step {
    }

    private record HttpError(int status, String message) implements Step {
    }

    private record HangUp() implements Step {
    }

    public Script chunk(JsonObject json) {
      steps.add(new Chunk(json));
      return this;
    }

    @Override
    public Script text(String text) {
      return chunk(candidate(new JsonArray().add(new JsonObject().put("text", text)), null));
    }

    /** A function call, with a thought signature as Gemini 2.5 sends them. */
    @Override
    public Script call(String name, JsonObject args) {
      return chunk(candidate(new JsonArray().add(functionCall(name, args)), null));
    }

    /** Several function calls as parts of one chunk, as Gemini sends parallel calls: {@code {name, args}} each. */
    public Script calls(JsonObject... calls) {
      JsonArray parts = new JsonArray();
      for (JsonObject c : calls) {
        parts.add(functionCall(c.getString("name"), c.getJsonObject("args")));
      }
      return chunk(candidate(parts, null));
    }

    /** A thought summary part: Gemini marks it {@code thought: true}; it is never the answer. */
    @Override
    public Script thought(String text) {
      return chunk(candidate(new JsonArray().add(new JsonObject().put("text", text).put("thought", true)), null));
    }

    /** The final chunk: finish reason STOP and token usage. */
    @Override
    public Script usage(int promptTokens, int outputTokens) {
      return finish("STOP", promptTokens, outputTokens, 0);
    }

    /**
     * The final chunk with the given finish reason ({@code STOP}, {@code MAX_TOKENS}, {@code SAFETY},
     * {@code MALFORMED_FUNCTION_CALL}, ...) and token usage, thinking tokens counted apart as Gemini does.
     */
    public Script finish(String finishReason, int promptTokens, int outputTokens, int thoughtTokens) {
      return chunk(candidate(null, finishReason).put("usageMetadata", usageMetadata(promptTokens, outputTokens,
          thoughtTokens)));
    }

    /**
     * An empty candidate, as Gemini 2.5 sometimes sends right after a tool round: {@code content} with a role
     * and no {@code parts}, finish reason STOP, and usage.
     */
    /** Finish reason {@code MALFORMED_FUNCTION_CALL}. */
    @Override
    public Script malformed(int promptTokens) {
      return finish("MALFORMED_FUNCTION_CALL", promptTokens, 0, 0);
    }

    /** Thoughts are counted apart from the candidates' tokens, as Gemini counts them. */
    @Override
    public Script usage(int promptTokens, int outputTokens, int thoughtTokens) {
      return finish("STOP", promptTokens, outputTokens, thoughtTokens);
    }

    public Script emptyCandidate(int promptTokens) {
      JsonObject chunk = candidate(null, "STOP");
      chunk.getJsonArray("candidates").getJsonObject(0).put("content", new JsonObject().put("role", "model"));
      return chunk(chunk.put("usageMetadata", usageMetadata(promptTokens, 0, 0)));
    }

    /** A prompt Gemini refuses to read: {@code promptFeedback.blockReason} and no candidates at all. */
    public Script promptBlocked(String blockReason, int promptTokens) {
      return chunk(new JsonObject().put("promptFeedback", new JsonObject().put("blockReason", blockReason))
          .put("usageMetadata", usageMetadata(promptTokens, 0, 0)).put("modelVersion", "gemini-2.5-flash"));
    }

    /** Text in one chunk per piece, then usage. */
    @Override
    public Script answer(String... pieces) {
      for (String piece : pieces) {
        text(piece);
      }
      return usage(100, pieces.length);
    }

    /** Finish reason MAX_TOKENS. */
    @Override
    public Script cutOff(int promptTokens, int outputTokens) {
      return finish("MAX_TOKENS", promptTokens, outputTokens, 0);
    }

    /** Finish reason SAFETY, nothing written. */
    @Override
    public Script declined(int promptTokens) {
      return finish("SAFETY", promptTokens, 0, 0);
    }

    /** What Gemini 2.5 sends as nothing: {@link #emptyCandidate(int)}. */
    @Override
    public Script empty(int promptTokens) {
      return emptyCandidate(promptTokens);
    }

    @Override
    public Script pause(long ms) {
      steps.add(new Pause(ms));
      return this;
    }

    /** Waits, without sending anything, until the test calls {@link FakeGemini#release(String)}. */
    @Override
    public Script gate(String name) {
      steps.add(new Gate(name));
      return this;
    }

    /** Sends nothing more and never ends, until the client goes away (bounded at two minutes). */
    @Override
    public Script stall() {
      steps.add(new Stall());
      return this;
    }

    /** An HTTP error with Gemini's error body, before any event. */
    @Override
    public Script httpError(int status, String message) {
      steps.add(new HttpError(status, message));
      return this;
    }

    /** Gemini's HTTP 400 for an input past the model's context window: it says so only in words. */
    @Override
    public Script contextTooLarge() {
      return httpError(400, TOO_MANY_TOKENS);
    }

    /** An error event in the middle of the stream, as Gemini sends it, then the end. */
    @Override
    public Script streamError(int code, String message) {
      return chunk(new JsonObject().put("error", errorBody(code, message)));
    }

    /** Closes the connection abruptly. */
    @Override
    public Script hangUp() {
      steps.add(new HangUp());
      return this;
    }

    /** When each chunk was written (System.nanoTime). */
    @Override
    public List<Long> sentNanos() {
      return List.copyOf(sentNanos);
    }

    /** Completes when the client closed (or reset) this response's connection or the response ended. */
    @Override
    public Future<Void> closed() {
      return closed.future();
    }

    private static JsonObject functionCall(String name, JsonObject args) {
      String signature = Base64.getEncoder().encodeToString(("sig-" + name + "-" + args.encode().hashCode()).getBytes());
      return new JsonObject().put("functionCall", new JsonObject().put("name", name).put("args", args))
          .put("thoughtSignature", signature);
    }

    private static JsonObject usageMetadata(int promptTokens, int outputTokens, int thoughtTokens) {
      JsonObject usage = new JsonObject().put("promptTokenCount", promptTokens)
          .put("candidatesTokenCount", outputTokens).put("totalTokenCount", promptTokens + outputTokens + thoughtTokens);
      return thoughtTokens == 0 ? usage : usage.put("thoughtsTokenCount", thoughtTokens);
    }

    private static JsonObject candidate(JsonArray parts, String finishReason) {
      JsonObject candidate = new JsonObject().put("index", 0);
      if (parts != null) {
        candidate.put("content", new JsonObject().put("parts", parts).put("role", "model"));
      }
      if (finishReason != null) {
        candidate.put("finishReason", finishReason);
      }
      return new JsonObject().put("candidates", new JsonArray().add(candidate)).put("modelVersion", "gemini-2.5-flash");
    }
  }

  private final Vertx vertx;
  private final ConcurrentLinkedQueue<Script> scripts = new ConcurrentLinkedQueue<>();
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  private final BlockingQueue<Request> arrivals = new LinkedBlockingQueue<>();
  private final Map<String, Promise<Void>> gates = new ConcurrentHashMap<>();
  private volatile Function<? super Request, ? extends FakeModel.Script> responder;
  private HttpServer server;

  private FakeGemini(Vertx vertx) {
    this.vertx = vertx;
  }

  public static FakeGemini start(Vertx vertx) {
    FakeGemini fake = new FakeGemini(vertx);
    fake.server = vertx.createHttpServer().requestHandler(fake::handle).listen(0, "127.0.0.1").await();
    return fake;
  }

  @Override
  public String baseUrl() {
    return "http://127.0.0.1:" + server.actualPort();
  }

  @Override
  public String provider() {
    return "gemini";
  }

  @Override
  public Script next() {
    Script script = new Script();
    scripts.add(script);
    return script;
  }

  /**
   * Answers every request that finds no enqueued script with the script {@code responder} makes of it (a load
   * test's many conversations, each in its own state).
   */
  @Override
  public void respondWith(Function<? super Request, ? extends FakeModel.Script> responder) {
    this.responder = responder;
  }

  @Override
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  @Override
  public Request awaitRequest() throws InterruptedException {
    Request request = arrivals.poll(10, TimeUnit.SECONDS);
    if (request == null) {
      throw new AssertionError("no request reached the fake Gemini within 10 s");
    }
    return request;
  }

  @Override
  public void release(String gate) {
    gates.computeIfAbsent(gate, g -> Promise.promise()).tryComplete();
  }

  @Override
  public void reset() {
    scripts.clear();
    requests.clear();
    arrivals.clear();
    gates.values().forEach(Promise::tryComplete);
    gates.clear();
    responder = null;
  }

  @Override
  public Future<Void> close() {
    return server.close();
  }

  private void handle(HttpServerRequest request) {
    Matcher path = PATH.matcher(request.path());
    if (request.method() != io.vertx.core.http.HttpMethod.POST || !path.matches()) {
      request.response().setStatusCode(404).end(new JsonObject().put("error", errorBody(404, "Not found")).encode());
      return;
    }
    request.body().onSuccess(body -> {
      Request recorded = new Request(path.group(1), request.getHeader("x-goog-api-key"), body.toJsonObject(),
          System.nanoTime());
      requests.add(recorded);
      arrivals.add(recorded);
      Script queued = scripts.poll();
      Script script = queued == null && responder != null ? (Script) responder.apply(recorded) : queued;
      if (script == null) {
        request.response().setStatusCode(500).putHeader("Content-Type", "application/json")
            .end(new JsonObject().put("error", errorBody(500, "FakeGemini: no script for request "
                + requests.size())).encode());
        return;
      }
      HttpServerResponse response = request.response();
      response.closeHandler(v -> script.closed.tryComplete());
      response.endHandler(v -> script.closed.tryComplete());
      run(script, 0, response);
    });
  }

  private void run(Script script, int index, HttpServerResponse response) {
    if (response.closed()) {
      return;
    }
    if (index >= script.steps.size()) {
      startStream(response);
      response.end();
      return;
    }
    Script.Step step = script.steps.get(index);
    if (step instanceof Script.Chunk chunk) {
      startStream(response);
      response.write("data: " + chunk.json().encode() + "\r\n\r\n");
      script.sentNanos.add(System.nanoTime());
      run(script, index + 1, response);
    } else if (step instanceof Script.Pause pause) {
      vertx.setTimer(pause.ms(), id -> run(script, index + 1, response));
    } else if (step instanceof Script.Gate gate) {
      gates.computeIfAbsent(gate.name(), g -> Promise.promise()).future()
          .onComplete(v -> vertx.runOnContext(x -> run(script, index + 1, response)));
    } else if (step instanceof Script.Stall) {
      startStream(response);
      vertx.setTimer(120_000, id -> {
        if (!response.closed()) {
          response.end();
        }
      });
    } else if (step instanceof Script.HttpError error) {
      response.setStatusCode(error.status()).putHeader("Content-Type", "application/json")
          .end(new JsonObject().put("error", errorBody(error.status(), error.message())).encode());
    } else {
      response.reset();
    }
  }

  private static void startStream(HttpServerResponse response) {
    if (!response.headWritten()) {
      response.setChunked(true).putHeader("Content-Type", "text/event-stream");
    }
  }

  private static JsonObject errorBody(int code, String message) {
    String status = switch (code) {
      case 400 -> "INVALID_ARGUMENT";
      case 429 -> "RESOURCE_EXHAUSTED";
      case 503 -> "UNAVAILABLE";
      default -> "INTERNAL";
    };
    return new JsonObject().put("code", code).put("message", message).put("status", status);
  }
}
