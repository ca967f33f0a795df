package io.quarry.llm;

import io.vertx.core.Future;

/**
 * The model behind the turn loop, whoever serves it: Gemini ({@link GeminiModel}) or any server of OpenAI's Chat
 * Completions ({@link OpenAiModel}). Each request is one streamed response, fed into a {@link ModelResponse} as it
 * arrives; nothing above this knows which provider answers.
 */
interface Model {

  /** A running response: cancel it, or wait for its end (a {@link ModelException} when it fails). */
  interface Call {
    Future<Void> done();

    void cancel();
  }

  /** Who answers, as the user's messages name it: "Gemini", or the configured model of another provider. */
  String speaker();

  /** The model's id, as token usage records it. */
  String id();

  /** The provider's name in metrics and logs: {@code gemini} or {@code openai}. */
  String provider();

  Call stream(ModelRequest request, ModelResponse into);

  Future<Void> close();
}
