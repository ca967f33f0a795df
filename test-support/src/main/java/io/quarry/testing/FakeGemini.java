package io.quarry.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Gemini-compatible server on 127.0.0.1 speaking what Quarry calls:
 * {@code POST /v1beta/models/{model}:streamGenerateContent?alt=sse}, key in {@code x-goog-api-key},
 * Server-Sent Events of {@code GenerateContentResponse} JSON. Each request is answered by the next
 * enqueued {@link Script}; every request is recorded so tests can assert what was sent.
 */
public final class FakeGemini extends ScriptedServer<FakeGemini.Request, FakeGemini.Script> {

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
  public static final class Script extends Steps<Script> {

    private record Chunk(JsonObject json) implements Step {
    }

    public Script chunk(JsonObject json) {
      return add(new Chunk(json));
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

    /**
     * An empty candidate, as Gemini 2.5 sometimes sends right after a tool round: {@code content} with a role
     * and no {@code parts}, finish reason STOP, and usage.
     */
    /** {@code candidates} that is no array. */
    @Override
    public Script oddEvent() {
      return oddEvent("none");
    }

    @Override
    public Script oddEvent(String text) {
      return chunk(new JsonObject().put("candidates", text));
    }

    /** What Gemini 2.5 sends as nothing: a candidate with no parts, finished STOP. */
    @Override
    public Script empty(int promptTokens) {
      JsonObject chunk = candidate(null, "STOP");
      chunk.getJsonArray("candidates").getJsonObject(0).put("content", new JsonObject().put("role", "model"));
      return chunk(chunk.put("usageMetadata", usageMetadata(promptTokens, 0, 0)));
    }

    /** A prompt Gemini refuses to read: {@code promptFeedback.blockReason} and no candidates at all. */
    public Script promptBlocked(String blockReason, int promptTokens) {
      return chunk(new JsonObject().put("promptFeedback", new JsonObject().put("blockReason", blockReason))
          .put("usageMetadata", usageMetadata(promptTokens, 0, 0)).put("modelVersion", "gemini-2.5-flash"));
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

    /** An HTTP error with Gemini's error body, before any event. */
    @Override
    public Script httpError(int status, String message) {
      return add(new HttpError(status, errorBody(status, message)));
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

  private FakeGemini(Vertx vertx) {
    super(vertx, "gemini", "Gemini", Script.class, Script::new);
  }

  public static FakeGemini start(Vertx vertx) {
    FakeGemini fake = new FakeGemini(vertx);
    fake.listen();
    return fake;
  }

  @Override
  public String baseUrl() {
    return origin();
  }

  @Override
  void handle(HttpServerRequest request) {
    Matcher path = PATH.matcher(request.path());
    if (request.method() != HttpMethod.POST || !path.matches()) {
      request.response().setStatusCode(404).end(new JsonObject().put("error", errorBody(404, "Not found")).encode());
      return;
    }
    request.body().onSuccess(body -> {
      Request recorded = new Request(path.group(1), request.getHeader("x-goog-api-key"), body.toJsonObject(),
          System.nanoTime());
      arrived(recorded);
      answer(recorded, request.response());
    });
  }

  /** A chunk is Gemini's only step of its own, one event each; nothing marks the stream's end. */
  @Override
  Player player(Script script, Request request, HttpServerResponse response) {
    return step -> {
      startStream(response);
      response.write("data: " + ((Script.Chunk) step).json().encode() + "\r\n\r\n");
      return false;
    };
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
