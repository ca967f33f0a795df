package io.quarry.llm;

/** Every test of {@link ContinueTurnTest} against a server of OpenAI's Chat Completions API. */
class OpenAiContinueTurnTest extends ContinueTurnTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
