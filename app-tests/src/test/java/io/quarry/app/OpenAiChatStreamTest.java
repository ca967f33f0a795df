package io.quarry.app;

import java.util.HashMap;
import java.util.Map;

/** Every test of {@link ChatStreamTest} with a node whose model is an OpenAI-compatible server (QUARRY_LLM_PROVIDER=openai). */
class OpenAiChatStreamTest extends ChatStreamTest {

  @Override
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>(super.env());
    env.put("QUARRY_LLM_PROVIDER", "openai");
    return env;
  }
}
