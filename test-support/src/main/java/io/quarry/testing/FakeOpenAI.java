package io.quarry.testing;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;

/**
 * An OpenAI-compatible server on 127.0.0.1 speaking Chat Completions as OpenAI documents it:
 * {@code POST /v1/chat/completions}, key as {@code Authorization: Bearer}, {@code "stream": true}, Server-Sent Events
 * of {@code chat.completion.chunk} JSON ending with {@code data: [DONE]}. Each request is answered by the next
 * enqueued {@link Script}; every request is recorded so tests can assert what was sent. How other compatible servers
 * depart from OpenAI's is chosen when it starts ({@link Quirks}).
 */
public final class FakeOpenAI extends ScriptedServer<FakeOpenAI.Request, FakeOpenAI.Script> {

  private static final String PATH = "/v1/chat/completions";
  private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final String CONTEXT_TOO_LARGE = "This model's maximum context length is 128000 tokens. However, your "
      + "messages resulted in 130000 tokens. Please reduce the length of the messages.";

  /** How a compatible server departs from OpenAI's own; fixed when the fake starts, kept by {@link #reset()}. */
  public record Quirks(boolean sendsUsage, boolean splitsArguments, IntFunction<String> toolCallIds) {

    /** OpenAI's own: usage when asked, arguments streamed in pieces, ids {@code call_} and 24 random characters. */
    public static Quirks openAI() {
      return new Quirks(true, true, index -> "call_" + random(24));
    }

    /** Never sends usage, even when asked (Ollama, older vLLM). */
    public Quirks noUsage() {
      return new Quirks(false, splitsArguments, toolCallIds);
    }

    /** A call's arguments whole in its first delta, with its id and name (Ollama). */
    public Quirks wholeArguments() {
      return new Quirks(sendsUsage, false, toolCallIds);
    }

    /** Tool call ids of another form, made of the call's index: {@code "call_" + index}, vLLM's {@code chatcmpl-tool-}. */
    public Quirks toolCallIds(IntFunction<String> ids) {
      return new Quirks(sendsUsage, splitsArguments, ids);
    }
  }

  /** One recorded request; {@code apiKey} is empty when no key was sent, as a local server allows. */
  public record Request(String model, String apiKey, JsonObject body, long receivedNanos) implements FakeModel.Request {

    public List<JsonObject> messages() {
      List<JsonObject> messages = new ArrayList<>();
      body.getJsonArray("messages", new JsonArray()).forEach(m -> messages.add((JsonObject) m));
      return messages;
    }

    /** Whether the client asked for usage ({@code stream_options.include_usage}). */
    public boolean usageAsked() {
      return body.getJsonObject("stream_options", new JsonObject()).getBoolean("include_usage", false);
    }

    /** The system (or developer) messages' text. */
    @Override
    public String systemText() {
      StringBuilder text = new StringBuilder();
      messages().stream().filter(m -> "system".equals(m.getString("role")) || "developer".equals(m.getString("role")))
          .forEach(m -> text.append(text(m)));
      return text.toString();
    }

    @Override
    public List<String> userTexts() {
      return messages().stream().filter(m -> "user".equals(m.getString("role"))).map(Request::text).toList();
    }

    /** Every {@code tool} message, its content read as JSON, named after the assistant's call it answers. */
    @Override
    public List<JsonObject> functionResponses() {
      Map<String, String> names = new HashMap<>();
      List<JsonObject> responses = new ArrayList<>();
      for (JsonObject message : messages()) {
        message.getJsonArray("tool_calls", new JsonArray()).forEach(c -> names.put(((JsonObject) c).getString("id"),
            ((JsonObject) c).getJsonObject("function", new JsonObject()).getString("name")));
        if ("tool".equals(message.getString("role"))) {
          String id = message.getString("tool_call_id");
          JsonObject response = new JsonObject().put("response", new JsonObject(text(message)));
          if (id != null) {
            response.put("id", id);
          }
          if (names.get(id) != null) {
            response.put("name", names.get(id));
          }
          responses.add(response);
        }
      }
      return responses;
    }

    /** A message's content: a string, or an array of parts whose text is joined. */
    private static String text(JsonObject message) {
      if (message.getValue("content") instanceof JsonArray parts) {
        StringBuilder text = new StringBuilder();
        parts.forEach(p -> text.append(((JsonObject) p).getString("text", "")));
        return text.toString();
      }
      return message.getString("content", "");
    }
  }

  /** What one response does, step by step. */
  public static final class Script extends Steps<Script> {
    private int calls;

    private record Delta(JsonObject delta) implements Step {
    }

    /** {@code arguments}: as sent, which may be no JSON at all (a malformed call). */
    private record Call(int index, String name, String arguments) implements Step {
    }

    private record Finish(String reason, int promptTokens, int completionTokens, int reasoningTokens)
        implements Step {
    }

    private record StreamError(JsonObject error) implements Step {
    }

    @Override
    public Script text(String text) {
      return add(new Delta(new JsonObject().put("content", text)));
    }

    /** A tool call streamed as OpenAI does: id and name first, then the arguments' JSON in pieces. */
    @Override
    public Script call(String name, JsonObject args) {
      return add(new Call(calls++, name, args.encode()));
    }

    /** Reasoning as DeepSeek and vLLM's reasoning parsers stream it, in {@code reasoning_content}. */
    @Override
    public Script thought(String text) {
      return add(new Delta(new JsonObject().put("reasoning_content", text)));
    }

    /** The end: finish reason {@code tool_calls} if this response made calls, else {@code stop}; token usage. */
    @Override
    public Script usage(int promptTokens, int outputTokens) {
      return finish(calls > 0 ? "tool_calls" : "stop", promptTokens, outputTokens, 0);
    }

    /**
     * The end: a chunk with the given {@code finish_reason} ({@code stop}, {@code length}, {@code tool_calls},
     * {@code content_filter}), then, when the client asked for it, the usage chunk; reasoning tokens are counted
     * within the completion tokens, as OpenAI counts them.
     */
    public Script finish(String finishReason, int promptTokens, int completionTokens, int reasoningTokens) {
      return add(new Finish(finishReason, promptTokens, completionTokens, reasoningTokens));
    }

    /** A delta whose {@code content} is an object, not text. */
    @Override
    public Script oddEvent() {
      return oddEvent("text");
    }

    @Override
    public Script oddEvent(String text) {
      return add(new Delta(new JsonObject().put("content", new JsonObject().put("not", text))));
    }

    /** A call whose arguments are cut off, no JSON object, then finish reason {@code tool_calls}. */
    @Override
    public Script malformed(int promptTokens) {
      add(new Call(calls++, "execute_sql", "{\"query\": \"SELECT"));
      return finish("tool_calls", promptTokens, 0, 0);
    }

    /** Reasoning tokens are within the completion tokens, as OpenAI counts them. */
    @Override
    public Script usage(int promptTokens, int outputTokens, int thoughtTokens) {
      return finish(calls > 0 ? "tool_calls" : "stop", promptTokens, outputTokens + thoughtTokens, thoughtTokens);
    }

    /** Finish reason {@code length}. */
    @Override
    public Script cutOff(int promptTokens, int outputTokens) {
      return finish("length", promptTokens, outputTokens, 0);
    }

    /** Finish reason {@code content_filter}, nothing written. */
    @Override
    public Script declined(int promptTokens) {
      return finish("content_filter", promptTokens, 0, 0);
    }

    /** The assistant's first chunk and finish reason {@code stop}, with no content between. */
    @Override
    public Script empty(int promptTokens) {
      return finish("stop", promptTokens, 0, 0);
    }

    /** The status with OpenAI's error body, its {@code type} and {@code code} those OpenAI gives that status. */
    @Override
    public Script httpError(int status, String message) {
      String type = status == 429 ? "requests" : status >= 500 ? "server_error" : "invalid_request_error";
      String code = status == 429 ? "rate_limit_exceeded" : status == 401 ? "invalid_api_key" : null;
      return add(new HttpError(status, error(message, type, null, code)));
    }

    /** OpenAI tells a request too large by its code, {@code context_length_exceeded}. */
    @Override
    public Script contextTooLarge() {
      return add(new HttpError(400, error(CONTEXT_TOO_LARGE, "invalid_request_error", "messages",
          "context_length_exceeded")));
    }

    /**
     * An {@code {"error": ...}} event, then the end without {@code [DONE]}; the code is the number given, as vLLM
     * sends it (and as FakeGemini does), so both fakes tell a client the same status.
     */
    @Override
    public Script streamError(int code, String message) {
      return add(new StreamError(new JsonObject().put("message", message).put("type", "server_error")
          .put("param", null).put("code", code)));
    }
  }

  /** One response under way: what each of its chunks repeats, and whether the assistant's first chunk went out. */
  private final class Reply implements Player {
    final HttpServerResponse response;
    final Script script;
    final String model;
    final boolean sendsUsage;
    final String id = "chatcmpl-" + random(29);
    final long created = Instant.now().getEpochSecond();
    boolean started;
    boolean finished;

    Reply(HttpServerResponse response, Script script, Request request) {
      this.response = response;
      this.script = script;
      this.model = request.model();
      this.sendsUsage = request.usageAsked() && quirks.sendsUsage();
    }

    @Override
    public boolean play(Step step) {
      if (step instanceof Script.Delta delta) {
        choice(delta.delta(), null);
      } else if (step instanceof Script.Call call) {
        callDeltas(call).forEach(d -> choice(d, null));
      } else if (step instanceof Script.Finish finish) {
        finish(finish);
      } else {
        event(new JsonObject().put("error", ((Script.StreamError) step).error()));
        return true;
      }
      return false;
    }

    /** A script that ends without a finish still ends its choice, as OpenAI always does; then {@code [DONE]}. */
    @Override
    public void done() {
      if (!finished) {
        choice(new JsonObject(), script.calls > 0 ? "tool_calls" : "stop");
      }
      write("[DONE]");
    }

    void choice(JsonObject delta, String finishReason) {
      if (!started) {
        started = true;
        choice(new JsonObject().put("role", "assistant").put("content", "").put("refusal", null), null);
      }
      event(chunk(new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta).put("logprobs", null)
          .put("finish_reason", finishReason))));
    }

    void finish(Script.Finish finish) {
      finished = true;
      choice(new JsonObject(), finish.reason());
      if (sendsUsage) {
        event(chunk(new JsonArray()).put("usage", new JsonObject().put("prompt_tokens", finish.promptTokens())
            .put("completion_tokens", finish.completionTokens())
            .put("total_tokens", finish.promptTokens() + finish.completionTokens())
            .put("completion_tokens_details", new JsonObject().put("reasoning_tokens", finish.reasoningTokens()))));
      }
    }

    /** OpenAI puts {@code "usage": null} in every chunk but the last when usage is asked for. */
    JsonObject chunk(JsonArray choices) {
      JsonObject chunk = new JsonObject().put("id", id).put("object", "chat.completion.chunk").put("created", created)
          .put("model", model).put("system_fingerprint", "fp_fake").put("choices", choices);
      return sendsUsage ? chunk.put("usage", null) : chunk;
    }

    void event(JsonObject data) {
      write(data.encode());
    }

    void write(String data) {
      startStream(response);
      response.write("data: " + data + "\n\n");
    }
  }

  private final Quirks quirks;

  private FakeOpenAI(Vertx vertx, Quirks quirks) {
    super(vertx, "openai", "OpenAI", Script.class, Script::new);
    this.quirks = quirks;
  }

  /** OpenAI's own server. */
  public static FakeOpenAI start(Vertx vertx) {
    return start(vertx, Quirks.openAI());
  }

  /** A compatible server with these quirks, e.g. {@code Quirks.openAI().noUsage().wholeArguments()}. */
  public static FakeOpenAI start(Vertx vertx, Quirks quirks) {
    FakeOpenAI fake = new FakeOpenAI(vertx, quirks);
    fake.listen();
    return fake;
  }

  @Override
  public String baseUrl() {
    return origin() + "/v1";
  }

  @Override
  void handle(HttpServerRequest request) {
    if (request.method() != HttpMethod.POST || !PATH.equals(request.path())) {
      fail(request.response(), 404, error("Invalid URL (" + request.method() + " " + request.path() + ")",
          "invalid_request_error", null, null));
      return;
    }
    request.body().onSuccess(body -> {
      String authorization = request.getHeader("Authorization");
      JsonObject json = body.toJsonObject();
      Request recorded = new Request(json.getString("model"),
          authorization == null ? "" : authorization.replaceFirst("^Bearer ", ""), json, System.nanoTime());
      arrived(recorded);
      if (!Boolean.TRUE.equals(json.getValue("stream"))) {
        fail(request.response(), 400, error("FakeOpenAI answers only streamed requests (\"stream\": true)",
            "invalid_request_error", "stream", null));
        return;
      }
      answer(recorded, request.response());
    });
  }

  @Override
  Player player(Script script, Request request, HttpServerResponse response) {
    return new Reply(response, script, request);
  }

  /** A call's deltas: id, type and name with empty arguments, then the arguments in pieces (or all at once). */
  private List<JsonObject> callDeltas(Script.Call call) {
    String arguments = call.arguments();
    List<JsonObject> deltas = new ArrayList<>();
    deltas.add(toolCall(new JsonObject().put("index", call.index()).put("id", quirks.toolCallIds().apply(call.index()))
        .put("type", "function").put("function", new JsonObject().put("name", call.name())
            .put("arguments", quirks.splitsArguments() ? "" : arguments))));
    if (quirks.splitsArguments()) {
      pieces(arguments).forEach(piece -> deltas.add(toolCall(new JsonObject().put("index", call.index())
          .put("function", new JsonObject().put("arguments", piece)))));
    }
    return deltas;
  }

  private static JsonObject toolCall(JsonObject call) {
    return new JsonObject().put("tool_calls", new JsonArray().add(call));
  }

  /** Three pieces (two of {@code {}}), as OpenAI streams arguments a few tokens at a time; never half a character. */
  private static List<String> pieces(String json) {
    int count = json.length() < 3 ? 2 : 3;
    List<String> pieces = new ArrayList<>();
    int from = 0;
    for (int i = 1; i <= count; i++) {
      int to = Math.max(from, json.length() * i / count);
      if (to < json.length() && Character.isLowSurrogate(json.charAt(to))) {
        to++;
      }
      pieces.add(json.substring(from, to));
      from = to;
    }
    return pieces;
  }

  private static JsonObject error(String message, String type, String param, String code) {
    return new JsonObject().put("message", message).put("type", type).put("param", param).put("code", code);
  }

  private static String random(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(ALPHANUMERIC.charAt(ThreadLocalRandom.current().nextInt(ALPHANUMERIC.length())));
    }
    return text.toString();
  }
}
