package io.quarry.llm;

/** Every test of {@link KeyRedactionTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiKeyRedactionTest extends KeyRedactionTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
