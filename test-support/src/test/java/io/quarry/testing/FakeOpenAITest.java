package io.quarry.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.openai.core.JsonValue;
import com.openai.core.ObjectMappers;
import com.openai.models.ErrorObject;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.completions.CompletionUsage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The fake's every event is read with OpenAI's own SDK types, as the llm verticle reads a real server's. */
@ExtendWith(VertxExtension.class)
class FakeOpenAITest {

  static final String MODEL = "gpt-4o-mini";
  static final JsonObject SQL = new JsonObject().put("query", "SELECT count(*) AS n FROM table1");
  static final JsonObject CHART = new JsonObject().put("result_id", "r1").put("chart_type", "bar");

  Vertx vertx;
  Context context;
  HttpClient client;
  FakeOpenAI fake;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    context = vertx.getOrCreateContext();
    client = vertx.createHttpClient();
    fake = FakeOpenAI.start(vertx);
  }

  /** A whole response as a client sees it. */
  record Sse(int status, String contentType, String body) {

    /** Each event's data, in order. */
    List<String> data() {
      return Arrays.stream(body.split("\n\n")).map(event -> {
        assertThat(event).startsWith("data: ");
        return event.substring("data: ".length());
      }).toList();
    }

    /** Every event before the closing {@code [DONE]}, read and validated as the SDK's chunk. */
    List<ChatCompletionChunk> chunks() {
      List<String> data = data();
      assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
      return data.subList(0, data.size() - 1).stream().map(FakeOpenAITest::chunk).toList();
    }

    ErrorObject error() {
      return read(new JsonObject(body).getJsonObject("error").encode(), ErrorObject.class).validate();
    }
  }

  /** What a client makes of the chunks: text, reasoning, calls assembled by index, finish reasons, usage. */
  record Answer(String content, String reasoning, Map<Long, JsonObject> calls, List<String> finishReasons,
      List<CompletionUsage> usages) {

    static Answer of(List<ChatCompletionChunk> chunks) {
      StringBuilder content = new StringBuilder();
      StringBuilder reasoning = new StringBuilder();
      Map<Long, JsonObject> calls = new TreeMap<>();
      List<String> finishReasons = new ArrayList<>();
      List<CompletionUsage> usages = new ArrayList<>();
      for (ChatCompletionChunk chunk : chunks) {
        chunk.usage().ifPresent(usages::add);
        for (ChatCompletionChunk.Choice choice : chunk.choices()) {
          choice.delta().content().ifPresent(content::append);
          JsonValue thought = choice.delta()._additionalProperties().get("reasoning_content");
          if (thought != null) {
            reasoning.append(thought.convert(String.class));
          }
          choice.delta().toolCalls().orElse(List.of()).forEach(delta -> {
            JsonObject call = calls.computeIfAbsent(delta.index(), i -> new JsonObject().put("arguments", "")
                .put("pieces", 0));
            delta.id().ifPresent(id -> call.put("id", id));
            delta.function().flatMap(f -> f.name()).ifPresent(name -> call.put("name", name));
            delta.function().flatMap(f -> f.arguments()).filter(a -> !a.isEmpty()).ifPresent(piece -> call
                .put("arguments", call.getString("arguments") + piece).put("pieces", call.getInteger("pieces") + 1));
          });
          choice.finishReason().ifPresent(reason -> finishReasons.add(reason.asString()));
        }
      }
      return new Answer(content.toString(), reasoning.toString(), calls, finishReasons, usages);
    }
  }

  @Test
  @DisplayName("a text answer is chat.completion.chunk events of one id the SDK reads, the assistant's role first, "
      + "finish reason stop, usage alone in the last chunk when asked, then [DONE]")
  void textWithUsage() {
    FakeOpenAI.Script script = fake.next().text("Hello ").text("world.").usage(12, 3);

    Sse sse = post(fake, ask(true));

    assertThat(sse.status()).isEqualTo(200);
    assertThat(sse.contentType()).isEqualTo("text/event-stream");
    List<ChatCompletionChunk> chunks = sse.chunks();
    assertThat(chunks).allSatisfy(chunk -> {
      assertThat(chunk.id()).matches("chatcmpl-[A-Za-z0-9]+").isEqualTo(chunks.get(0).id());
      assertThat(chunk.model()).isEqualTo(MODEL);
      assertThat(chunk._object_().convert(String.class)).isEqualTo("chat.completion.chunk");
    });
    assertThat(chunks.get(0).choices().get(0).delta().role()).hasValueSatisfying(role ->
        assertThat(role.asString()).isEqualTo("assistant"));
    Answer answer = Answer.of(chunks);
    assertThat(answer.content()).isEqualTo("Hello world.");
    assertThat(answer.finishReasons()).containsExactly("stop");
    assertThat(chunks.get(chunks.size() - 2).choices().get(0).finishReason()).isPresent();
    ChatCompletionChunk last = chunks.get(chunks.size() - 1);
    assertThat(last.choices()).isEmpty();
    assertThat(answer.usages()).containsExactly(last.usage().orElseThrow());
    assertThat(last.usage().orElseThrow()).satisfies(usage -> {
      assertThat(usage.promptTokens()).isEqualTo(12);
      assertThat(usage.completionTokens()).isEqualTo(3);
      assertThat(usage.totalTokens()).isEqualTo(15);
      assertThat(usage.completionTokensDetails().flatMap(d -> d.reasoningTokens())).contains(0L);
    });
    assertThat(script.sentNanos()).hasSize(3);
    FakeOpenAI.Request request = fake.requests().get(0);
    assertThat(request.apiKey()).isEqualTo("sk-test");
    assertThat(request.model()).isEqualTo(MODEL);
    assertThat(request.usageAsked()).isTrue();
  }

  @Test
  @DisplayName("usage not asked for is never sent")
  void textWithoutUsage() {
    fake.next().answer("Hi ", "there.");

    Sse sse = post(fake, ask(false));

    assertThat(sse.body()).doesNotContain("usage");
    Answer answer = Answer.of(sse.chunks());
    assertThat(answer.content()).isEqualTo("Hi there.");
    assertThat(answer.finishReasons()).containsExactly("stop");
  }

  @Test
  @DisplayName("two tool calls in one response come as deltas by index: id, type and name first, then the "
      + "arguments' JSON in pieces; finish reason tool_calls")
  void twoToolCalls() {
    fake.next().call("execute_sql", SQL).call("render_chart", CHART).usage(50, 9);

    List<ChatCompletionChunk> chunks = post(fake, ask(true)).chunks();

    Answer answer = Answer.of(chunks);
    assertThat(answer.calls()).containsOnlyKeys(0L, 1L);
    assertThat(answer.calls().get(0L).getString("id")).matches("call_[A-Za-z0-9]{24}");
    assertThat(answer.calls().get(1L).getString("id")).matches("call_[A-Za-z0-9]{24}")
        .isNotEqualTo(answer.calls().get(0L).getString("id"));
    assertThat(answer.calls().get(0L).getString("name")).isEqualTo("execute_sql");
    assertThat(answer.calls().get(1L).getString("name")).isEqualTo("render_chart");
    assertThat(new JsonObject(answer.calls().get(0L).getString("arguments"))).isEqualTo(SQL);
    assertThat(new JsonObject(answer.calls().get(1L).getString("arguments"))).isEqualTo(CHART);
    assertThat(answer.calls().values()).allSatisfy(call -> assertThat(call.getInteger("pieces")).isBetween(2, 3));
    List<ChatCompletionChunk.Choice.Delta.ToolCall> deltas = chunks.stream()
        .flatMap(chunk -> chunk.choices().stream())
        .flatMap(choice -> choice.delta().toolCalls().orElse(List.of()).stream()).toList();
    assertThat(deltas).filteredOn(delta -> delta.id().isPresent()).hasSize(2).allSatisfy(first -> {
      assertThat(first.type()).isPresent();
      assertThat(first.function().flatMap(f -> f.arguments())).contains("");
    });
    assertThat(deltas).filteredOn(delta -> delta.id().isEmpty()).hasSizeBetween(4, 6)
        .allSatisfy(piece -> assertThat(piece.function().flatMap(f -> f.name())).isEmpty());
    assertThat(answer.finishReasons()).containsExactly("tool_calls");
    assertThat(answer.usages()).singleElement().satisfies(usage -> assertThat(usage.totalTokens()).isEqualTo(59));
  }

  @Test
  @DisplayName("a thought is reasoning_content, never content; its tokens are counted as reasoning tokens")
  void reasoning() {
    fake.next().thought("Count the rows first.").text("There are 100.").finish("stop", 10, 30, 20);

    Answer answer = Answer.of(post(fake, ask(true)).chunks());

    assertThat(answer.reasoning()).isEqualTo("Count the rows first.");
    assertThat(answer.content()).isEqualTo("There are 100.");
    assertThat(answer.usages()).singleElement().satisfies(usage -> assertThat(usage.completionTokensDetails()
        .flatMap(d -> d.reasoningTokens())).contains(20L));
  }

  @Test
  @DisplayName("an HTTP 429 has OpenAI's error body: the message, type requests, code rate_limit_exceeded")
  void rateLimited() {
    fake.next().httpError(429, "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3.");

    Sse sse = post(fake, ask(true));

    assertThat(sse.status()).isEqualTo(429);
    assertThat(sse.contentType()).isEqualTo("application/json");
    ErrorObject error = sse.error();
    assertThat(error.message()).isEqualTo("Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3.");
    assertThat(error.type()).isEqualTo("requests");
    assertThat(error.code()).contains("rate_limit_exceeded");
    assertThat(error.param()).isEmpty();
  }

  @Test
  @DisplayName("a context too large is an HTTP 400 with code context_length_exceeded and OpenAI's words")
  void contextTooLarge() {
    fake.next().contextTooLarge();

    Sse sse = post(fake, ask(true));

    assertThat(sse.status()).isEqualTo(400);
    ErrorObject error = sse.error();
    assertThat(error.code()).contains("context_length_exceeded");
    assertThat(error.type()).isEqualTo("invalid_request_error");
    assertThat(error.message()).isEqualTo("This model's maximum context length is 128000 tokens. However, your "
        + "messages resulted in 130000 tokens. Please reduce the length of the messages.");
  }

  @Test
  @DisplayName("a gate holds the stream after what came before it until released; sentNanos counts what was sent")
  void gate() {
    FakeOpenAI.Script script = fake.next().text("First").gate("rest").text(" second").usage(10, 2);
    Promise<Void> first = Promise.promise();

    Future<Sse> done = stream(fake, ask(true), (request, received) -> {
      if (received.contains("First")) {
        first.tryComplete();
      }
    });
    await(first.future());

    assertThat(script.sentNanos()).hasSize(1);
    assertThat(done.isComplete()).isFalse();
    fake.release("rest");
    assertThat(Answer.of(await(done).chunks()).content()).isEqualTo("First second");
    assertThat(script.sentNanos()).hasSize(3);
  }

  @Test
  @DisplayName("a stall sends nothing more until the client goes away; then the script is closed")
  void stall() {
    FakeOpenAI.Script script = fake.next().text("Partial").stall();
    Promise<HttpClientRequest> partial = Promise.promise();

    stream(fake, ask(true), (request, received) -> {
      if (received.contains("Partial")) {
        partial.tryComplete(request);
      }
    });
    await(partial.future()).reset();

    await(script.closed());
    assertThat(script.sentNanos()).hasSize(1);
  }

  @Test
  @DisplayName("a server that sends no usage and whole arguments (Ollama's way) keeps to it even when usage is asked")
  void quirks() {
    FakeOpenAI ollama = FakeOpenAI.start(vertx, FakeOpenAI.Quirks.openAI().noUsage().wholeArguments()
        .toolCallIds(index -> "call_" + index));
    ollama.next().call("execute_sql", SQL).usage(10, 1);

    List<ChatCompletionChunk> chunks = post(ollama, ask(true)).chunks();

    List<ChatCompletionChunk.Choice.Delta.ToolCall> deltas = chunks.stream()
        .flatMap(chunk -> chunk.choices().stream())
        .flatMap(choice -> choice.delta().toolCalls().orElse(List.of()).stream()).toList();
    assertThat(deltas).singleElement().satisfies(call -> {
      assertThat(call.index()).isZero();
      assertThat(call.id()).contains("call_0");
      assertThat(call.function().flatMap(f -> f.name())).contains("execute_sql");
      assertThat(call.function().flatMap(f -> f.arguments()).map(JsonObject::new)).contains(SQL);
    });
    Answer answer = Answer.of(chunks);
    assertThat(answer.finishReasons()).containsExactly("tool_calls");
    assertThat(answer.usages()).isEmpty();
  }

  @Test
  @DisplayName("a request reads as FakeModel.Request: system text, user texts, tool results named after their calls")
  void request() throws InterruptedException {
    fake.next().answer("Done.");
    JsonObject call = new JsonObject().put("id", "call_1").put("type", "function")
        .put("function", new JsonObject().put("name", "execute_sql").put("arguments", SQL.encode()));
    JsonArray messages = new JsonArray()
        .add(new JsonObject().put("role", "system").put("content", "You answer with SQL."))
        .add(new JsonObject().put("role", "user").put("content", "How many?"))
        .add(new JsonObject().put("role", "assistant").put("content", null).put("tool_calls", new JsonArray().add(call)))
        .add(new JsonObject().put("role", "tool").put("tool_call_id", "call_1").put("content", "{\"rows\":[[100]]}"))
        .add(new JsonObject().put("role", "user").put("content", new JsonArray()
            .add(new JsonObject().put("type", "text").put("text", "And now?"))));

    post(fake, ask(false).put("messages", messages), false);

    FakeModel.Request request = fake.awaitRequest();
    assertThat(request.apiKey()).isEmpty();
    assertThat(request.systemText()).isEqualTo("You answer with SQL.");
    assertThat(request.userTexts()).containsExactly("How many?", "And now?");
    assertThat(request.functionResponses()).containsExactly(new JsonObject().put("id", "call_1")
        .put("name", "execute_sql").put("response", new JsonObject().put("rows", new JsonArray().add(
            new JsonArray().add(100)))));
  }

  @Test
  @DisplayName("a responder answers a request no script waits for, through the FakeModel interface")
  void responder() {
    FakeModel<?> model = fake;
    model.respondWith(request -> new FakeOpenAI.Script().answer("You said " + request.userTexts().get(0)));

    assertThat(model.provider()).isEqualTo("openai");
    assertThat(Answer.of(post(fake, ask(false)).chunks()).content()).isEqualTo("You said Hi");
  }

  @Test
  @DisplayName("an error mid-stream is an error event, then the end without [DONE]")
  void streamError() {
    fake.next().text("Part").streamError(503, "The server had an error while processing your request.");

    List<String> data = post(fake, ask(true)).data();

    assertThat(chunk(data.get(1)).choices().get(0).delta().content()).contains("Part");
    assertThat(new JsonObject(data.get(data.size() - 1)).getJsonObject("error")).isEqualTo(new JsonObject()
        .put("message", "The server had an error while processing your request.").put("type", "server_error")
        .put("param", null).put("code", 503));
  }

  @Test
  @DisplayName("an unstreamed request is refused with 400, an unknown path with 404, both with OpenAI's error body")
  void refusals() {
    fake.next().answer("Never sent.");

    Sse unstreamed = post(fake, ask(false).put("stream", false));
    Sse unknown = await(onContext(() -> client.request(new RequestOptions().setMethod(HttpMethod.GET)
        .setAbsoluteURI(fake.baseUrl() + "/models"))
        .compose(request -> request.send().compose(response -> response.body().map(body ->
            new Sse(response.statusCode(), response.getHeader("Content-Type"), body.toString()))))));

    assertThat(unstreamed.status()).isEqualTo(400);
    assertThat(unstreamed.error().param()).contains("stream");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.error().type()).isEqualTo("invalid_request_error");
  }

  private static JsonObject ask(boolean usage) {
    JsonObject body = new JsonObject().put("model", MODEL).put("stream", true)
        .put("messages", new JsonArray().add(new JsonObject().put("role", "user").put("content", "Hi")));
    return usage ? body.put("stream_options", new JsonObject().put("include_usage", true)) : body;
  }

  private Sse post(FakeOpenAI server, JsonObject body) {
    return post(server, body, true);
  }

  private Sse post(FakeOpenAI server, JsonObject body, boolean withKey) {
    RequestOptions options = options(server);
    if (!withKey) {
      options.removeHeader("Authorization");
    }
    return await(onContext(() -> client.request(options).compose(request -> request.send(body.toBuffer()))
        .compose(response -> response.body().map(all ->
            new Sse(response.statusCode(), response.getHeader("Content-Type"), all.toString())))));
  }

  /** Posts, and hands on the request and everything received so far at each arrival; the response whole at its end. */
  private Future<Sse> stream(FakeOpenAI server, JsonObject body, BiConsumer<HttpClientRequest, String> onData) {
    Buffer received = Buffer.buffer();
    return onContext(() -> client.request(options(server)).compose(request -> request.send(body.toBuffer())
        .compose(response -> {
          response.handler(data -> {
            received.appendBuffer(data);
            onData.accept(request, received.toString());
          });
          return response.end().map(v -> new Sse(response.statusCode(), response.getHeader("Content-Type"),
              received.toString()));
        })));
  }

  /**
   * Runs a client call on one event loop: a response's handler is then set in the task its head arrives in, before
   * any of its data (from the test's thread, the future's callbacks could run after the data was handed on).
   */
  private <T> Future<T> onContext(Supplier<Future<T>> call) {
    Promise<T> result = Promise.promise();
    context.runOnContext(v -> call.get().onComplete(result));
    return result.future();
  }

  private static RequestOptions options(FakeOpenAI server) {
    return new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(server.baseUrl() + "/chat/completions")
        .putHeader("Authorization", "Bearer sk-test").putHeader("Content-Type", "application/json");
  }

  private static ChatCompletionChunk chunk(String json) {
    return read(json, ChatCompletionChunk.class).validate();
  }

  private static <T> T read(String json, Class<T> type) {
    try {
      return ObjectMappers.jsonMapper().readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new AssertionError("the SDK cannot read " + json, e);
    }
  }

  private static <T> T await(Future<T> future) {
    return future.timeout(10, TimeUnit.SECONDS).await();
  }
}
