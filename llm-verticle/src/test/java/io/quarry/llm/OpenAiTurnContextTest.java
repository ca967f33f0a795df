package io.quarry.llm;

/** Every test of {@link TurnContextTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiTurnContextTest extends TurnContextTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
