package io.quarry.llm;

import com.google.genai.types.GenerateContentResponse;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;

/** Gemini's {@code streamGenerateContent} over SSE; its responses are read with the {@code google-genai} SDK's types. */
final class GeminiModel implements Model {

  private final StreamingClient client;
  private final String model;

  GeminiModel(Vertx vertx, ModelSettings settings) {
    this.model = settings.model();
    this.client = new StreamingClient(vertx, new StreamingClient.Settings(StreamingClient.endpoint(settings.baseUrl(),
        "/v1beta/models/" + model + ":streamGenerateContent?alt=sse"), Map.of("x-goog-api-key", settings.apiKey()),
        ModelException.Who.GEMINI, Redactor.of(settings.apiKey()), settings.idleTimeoutMs(), settings.retries(),
        settings.retryBackoffMs()));
  }

  @Override
  public String speaker() {
    return "Gemini";
  }

  @Override
  public String id() {
    return model;
  }

  @Override
  public String provider() {
    return ModelSettings.GEMINI;
  }

  @Override
  public Call stream(ModelRequest request, ModelResponse into) {
    JsonObject body = new JsonObject()
        .put("contents", request.contents())
        .put("systemInstruction", new JsonObject().put("parts", new JsonArray()
            .add(new JsonObject().put("text", request.systemPrompt()))))
        .put("tools", Tools.GEMINI)
        .put("toolConfig", new JsonObject().put("functionCallingConfig",
            new JsonObject().put("mode", request.toolsOff() ? "NONE" : "AUTO")));
    GeminiChunks chunks = new GeminiChunks(into);
    return client.stream(body, data -> chunks.add(GenerateContentResponse.fromJson(data)));
  }

  @Override
  public Future<Void> close() {
    return client.close();
  }
}
