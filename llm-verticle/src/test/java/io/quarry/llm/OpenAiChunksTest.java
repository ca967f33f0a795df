package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionChunk;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Chat Completions chunks as servers really send them, read with OpenAI's SDK types into a response: text shown as it
 * comes, tool calls assembled by index, reasoning hidden but billed, usage from its last chunk or estimated.
 */
class OpenAiChunksTest {

  private final List<String> shown = new ArrayList<>();
  private final ModelResponse response = new ModelResponse(shown::add);
  private final OpenAiChunks chunks = new OpenAiChunks(response, 4_000);

  private static JsonObject chunk(JsonObject delta, String finishReason) {
    return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1)
        .put("model", "m").put("choices", new JsonArray().add(new JsonObject().put("index", 0).put("delta", delta)
            .put("logprobs", null).put("finish_reason", finishReason)));
  }

  private void feed(JsonObject... sent) throws Exception {
    for (JsonObject json : sent) {
      chunks.add(ObjectMappers.jsonMapper().readValue(json.encode(), ChatCompletionChunk.class));
    }
    chunks.end();
  }

  private static JsonObject text(String text) {
    return chunk(new JsonObject().put("content", text), null);
  }

  private static JsonObject callDelta(int index, String id, String name, String arguments) {
    JsonObject function = new JsonObject().put("arguments", arguments);
    if (name != null) {
      function.put("name", name);
    }
    JsonObject call = new JsonObject().put("index", index).put("function", function);
    if (id != null) {
      call.put("id", id).put("type", "function");
    }
    return chunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
  }

  private static JsonObject usage(int prompt, int completion, int reasoning) {
    return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1)
        .put("model", "m").put("choices", new JsonArray()).put("usage", new JsonObject().put("prompt_tokens", prompt)
            .put("completion_tokens", completion).put("total_tokens", prompt + completion)
            .put("completion_tokens_details", new JsonObject().put("reasoning_tokens", reasoning)));
  }

  @Test
  @DisplayName("text deltas are shown one by one and kept as one text part; usage comes from the last chunk")
  void text() throws Exception {
    feed(chunk(new JsonObject().put("role", "assistant").put("content", ""), null), text("Forty"), text("-two."),
        chunk(new JsonObject(), "stop"), usage(120, 7, 0));
    assertThat(shown).containsExactly("Forty", "-two.");
    assertThat(response.content().getJsonArray("parts")).containsExactly(new JsonObject().put("text", "Forty-two."));
    assertThat(Ending.of(response, "m").kind()).isEqualTo(Ending.Kind.ANSWERED);
    assertThat(List.of(response.inputTokens(), response.outputTokens(), response.estimated()))
        .containsExactly(120L, 7L, false);
  }

  @Test
  @DisplayName("two tool calls in one response, arguments in pieces, are assembled by index, ids and names kept")
  void calls() throws Exception {
    feed(callDelta(0, "call_a", "execute_sql", ""), callDelta(0, null, null, "{\"query\": \"SEL"),
        callDelta(1, "call_b", "render_table", ""), callDelta(0, null, null, "ECT 1\"}"),
        callDelta(1, null, null, "{\"result_id\":\"r1\"}"), chunk(new JsonObject(), "tool_calls"));
    assertThat(response.calls()).containsExactly(
        new ToolCall("call_a", "execute_sql", new JsonObject().put("query", "SELECT 1")),
        new ToolCall("call_b", "render_table", new JsonObject().put("result_id", "r1")));
    assertThat(response.content().getJsonArray("parts").getJsonObject(0).getJsonObject("functionCall")
        .getString("id")).isEqualTo("call_a");
    assertThat(Ending.of(response, "m").kind()).isEqualTo(Ending.Kind.CALLED_TOOLS);
  }

  @Test
  @DisplayName("arguments sent whole in the first delta (Ollama) make the same call")
  void wholeArguments() throws Exception {
    feed(callDelta(0, "call_0", "execute_sql", "{\"query\":\"SELECT 2\"}"), chunk(new JsonObject(), "tool_calls"));
    assertThat(response.calls()).containsExactly(
        new ToolCall("call_0", "execute_sql", new JsonObject().put("query", "SELECT 2")));
  }

  @Test
  @DisplayName("arguments that are not a JSON object make the response malformed: it is asked for again")
  void malformedArguments() throws Exception {
    feed(callDelta(0, "call_0", "execute_sql", "{\"query\": "), chunk(new JsonObject(), "tool_calls"));
    assertThat(Ending.of(response, "m").kind()).isEqualTo(Ending.Kind.MALFORMED);
    assertThat(Ending.of(response, "m").notice()).isEqualTo("m could not form a valid tool call; try asking again or"
        + " rephrasing");
  }

  @Test
  @DisplayName("reasoning_content is not shown, and without usage from the server the tokens are estimated, thoughts"
      + " included")
  void reasoningEstimated() throws Exception {
    feed(chunk(new JsonObject().put("reasoning_content", "x".repeat(400)), null), text("y".repeat(40)),
        chunk(new JsonObject(), "stop"));
    assertThat(shown).containsExactly("y".repeat(40));
    assertThat(response.estimated()).isTrue();
    assertThat(response.inputTokens()).isEqualTo(1_000);
    assertThat(response.outputTokens()).isEqualTo(110);
    assertThat(response.thinkingTokens()).isEqualTo(100);
  }

  @Test
  @DisplayName("finish_reason length is an answer cut off; content_filter a declined one, said in words")
  void endings() throws Exception {
    feed(text("Half an ans"), chunk(new JsonObject(), "length"));
    assertThat(Ending.of(response, "m").kind()).isEqualTo(Ending.Kind.CUT_OFF);
    ModelResponse filtered = new ModelResponse(t -> { });
    OpenAiChunks other = new OpenAiChunks(filtered, 10);
    other.add(ObjectMappers.jsonMapper().readValue(chunk(new JsonObject(), "content_filter").encode(),
        ChatCompletionChunk.class));
    other.end();
    assertThat(Ending.of(filtered, "m")).isEqualTo(new Ending(Ending.Kind.DECLINED,
        "The model's content filter declined to answer this question."));
  }

  @Test
  @DisplayName("an empty response is empty: asked again once, then the speaker's clear error")
  void empty() throws Exception {
    feed(chunk(new JsonObject().put("role", "assistant").put("content", ""), null), chunk(new JsonObject(), "stop"));
    assertThat(Ending.of(response, "llama3")).isEqualTo(new Ending(Ending.Kind.EMPTY,
        "llama3 returned an empty answer; try asking again or rephrasing"));
  }
}
