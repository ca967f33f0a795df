package io.quarry.llm;

import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectReader;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/**
 * Any server of OpenAI's Chat Completions API — OpenAI, Azure OpenAI, OpenRouter, Groq, DeepSeek, Mistral, or a local
 * Ollama, llama.cpp, LM Studio, vLLM or TGI — streamed over SSE; its chunks are read with OpenAI's Java SDK types.
 */
final class OpenAiModel implements Model {

  static final String OPENAI = "https://api.openai.com/v1";
  /**
   * Made once: the SDK's {@code ObjectMappers.jsonMapper()} builds a new mapper on every call, which made each chunk
   * cost 250 µs to read instead of 10. Made when first read, not with the model: it loads Jackson's Kotlin module and
   * Kotlin's reflection, seconds on a loaded machine, which the model's constructor on the event loop must not wait
   * for (the llm verticle's warm-up makes it on a worker thread).
   */
  private static final class Chunks {
    static final ObjectReader READER = ObjectMappers.jsonMapper().readerFor(ChatCompletionChunk.class);
  }

  private final StreamingClient client;
  private final String model;

  OpenAiModel(Vertx vertx, ModelSettings settings) {
    this.model = settings.model();
    // A local server asks for no key; one sent empty would be refused by some.
    Map<String, String> headers = settings.apiKey().isBlank() ? Map.of()
        : Map.of("Authorization", "Bearer " + settings.apiKey());
    this.client = new StreamingClient(vertx, new StreamingClient.Settings(StreamingClient.endpoint(
        settings.baseUrl().isBlank() ? OPENAI : settings.baseUrl(), "/chat/completions"), headers,
        new ModelException.Who(model, "OPENAI_API_KEY"), Redactor.of(settings.apiKey()), settings.idleTimeoutMs(),
        settings.retries(), settings.retryBackoffMs()));
  }

  @Override
  public String speaker() {
    return model;
  }

  @Override
  public String id() {
    return model;
  }

  @Override
  public String provider() {
    return ModelSettings.OPENAI;
  }

  @Override
  public Call stream(ModelRequest request, ModelResponse into) {
    JsonObject body = new JsonObject()
        .put("model", model)
        .put("stream", true)
        // Usage comes only when asked, in a last chunk of its own; a server that never sends it is estimated.
        .put("stream_options", new JsonObject().put("include_usage", true))
        .put("messages", OpenAiMessages.of(request.systemPrompt(), request.contents()))
        .put("tools", Tools.OPENAI)
        .put("tool_choice", request.toolsOff() ? "none" : "auto");
    OpenAiChunks chunks = new OpenAiChunks(into, body.encode().length());
    Call call = client.stream(body, data -> chunks.add(parse(data)));
    // First of the handlers: whoever waits for the end reads a response whose calls and tokens are complete.
    call.done().onComplete(ended -> chunks.end());
    return call;
  }

  /** Blocks a while the first time (the SDK's classes load): {@link LlmVerticle} calls it at start. */
  static ChatCompletionChunk read(String data) throws JsonProcessingException {
    return Chunks.READER.readValue(data);
  }

  /** Jackson's words name the SDK's classes: {@link SseStream} tells the user what failed, the log why. */
  private ChatCompletionChunk parse(String data) {
    try {
      return read(data);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Override
  public Future<Void> close() {
    return client.close();
  }
}
