package io.quarry.llm;

/** Every test of {@link FailedTurnTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiFailedTurnTest extends FailedTurnTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
