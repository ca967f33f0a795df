package io.quarry.app;

import java.util.HashMap;
import java.util.Map;

/** Every test of {@link ChatToolTest} with a node whose model is an OpenAI-compatible server (QUARRY_LLM_PROVIDER=openai). */
class OpenAiChatToolTest extends ChatToolTest {

  @Override
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>(super.env());
    env.put("QUARRY_LLM_PROVIDER", "openai");
    return env;
  }
}
