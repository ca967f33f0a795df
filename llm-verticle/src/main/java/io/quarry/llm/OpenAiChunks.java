package io.quarry.llm;

import com.openai.core.JsonValue;
import com.openai.models.chat.completions.ChatCompletionChunk;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chat Completions chunks into a {@link ModelResponse}, as servers really send them: text deltas shown as they come;
 * tool calls as deltas assembled by {@code index} (the id and the name once, the arguments in pieces, or whole in one
 * delta as Ollama sends them; several in one response); {@code reasoning_content} (DeepSeek, vLLM's reasoning parsers)
 * hidden but billed; the finish reason; usage only in a last chunk with no choices, when the server sends it at all —
 * when it does not, the tokens are estimated from the characters (four to a token), so budgets still hold.
 */
final class OpenAiChunks {

  /** One call being assembled. */
  private static final class Call {
    String id;
    String name = "";
    final StringBuilder arguments = new StringBuilder();
  }

  private final ModelResponse into;
  private final long requestChars;
  private final StringBuilder text = new StringBuilder();
  private final Map<Long, Call> calls = new TreeMap<>();
  private long reasoningChars;
  private String finishReason;
  private boolean usage;
  private boolean ended;

  /** {@code requestChars}: the request's length, from which its input tokens are estimated when no usage comes. */
  OpenAiChunks(ModelResponse into, long requestChars) {
    this.into = into;
    this.requestChars = requestChars;
  }

  void add(ChatCompletionChunk chunk) {
    into.arrived();
    chunk.usage().ifPresent(u -> {
      usage = true;
      long reasoning = u.completionTokensDetails().flatMap(d -> d.reasoningTokens()).orElse(0L);
      into.usage(u.promptTokens(), u.completionTokens(), reasoning, false);
    });
    for (ChatCompletionChunk.Choice choice : chunk.choices()) {
      if (choice.index() != 0) {
        continue;
      }
      ChatCompletionChunk.Choice.Delta delta = choice.delta();
      delta.content().ifPresent(t -> {
        text.append(t);
        into.shown(t);
      });
      JsonValue reasoning = delta._additionalProperties().get("reasoning_content");
      if (reasoning != null && !reasoning.isNull()) {
        reasoningChars += String.valueOf(reasoning.convert(String.class)).length();
      }
      delta.toolCalls().ifPresent(list -> list.forEach(piece -> {
        Call call = calls.computeIfAbsent(piece.index(), i -> new Call());
        piece.id().ifPresent(id -> call.id = id);
        piece.function().ifPresent(f -> {
          f.name().ifPresent(name -> call.name = name);
          f.arguments().ifPresent(call.arguments::append);
        });
      }));
      choice.finishReason().ifPresent(reason -> finishReason = reason.asString());
    }
  }

  /** The response is over (or was stopped): what it said goes into the history, and its tokens are known. */
  void end() {
    if (ended) {
      return;
    }
    ended = true;
    if (text.length() > 0) {
      into.keep(new JsonObject().put("text", text.toString()));
    }
    calls.values().forEach(this::call);
    if ("length".equals(finishReason)) {
      into.cutOff();
    } else if ("content_filter".equals(finishReason)) {
      into.declined(into.calls().isEmpty() && text.length() == 0
          ? "The model's content filter declined to answer this question."
          : "The model's content filter stopped the answer here.");
    }
    if (!usage) {
      long output = (text.length() + reasoningChars + calls.values().stream()
          .mapToLong(c -> c.name.length() + c.arguments.length()).sum() + 3) / 4;
      into.usage((requestChars + 3) / 4, output, (reasoningChars + 3) / 4, true);
    }
  }

  /** A call whose arguments are not a JSON object cannot be run: the response is asked for again. */
  private void call(Call call) {
    JsonObject args;
    try {
      args = call.arguments.length() == 0 ? new JsonObject() : new JsonObject(call.arguments.toString());
    } catch (DecodeException | ClassCastException e) {
      into.malformed();
      return;
    }
    JsonObject functionCall = new JsonObject().put("name", call.name).put("args", args);
    if (call.id != null) {
      functionCall.put("id", call.id);
    }
    into.keep(new JsonObject().put("functionCall", functionCall));
    into.called(new ToolCall(call.id, call.name, args));
  }
}
