package io.quarry.llm;

/** Every test of {@link FollowUpsTest} against a server of OpenAI's Chat Completions API. */
class OpenAiFollowUpsTest extends FollowUpsTest {

  @Override
  String provider() {
    return ModelSettings.OPENAI;
  }
}
