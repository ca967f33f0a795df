package io.quarry.llm;

/** Every test of {@link TurnStreamTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiTurnStreamTest extends TurnStreamTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
