package io.quarry.llm;

/** Every test of {@link AnswerNumbersTest}, against a server of OpenAI's Chat Completions API. */
class OpenAiAnswerNumbersTest extends AnswerNumbersTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
