package io.quarry.llm;

/** Every test of {@link TurnToolTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiTurnToolTest extends TurnToolTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
