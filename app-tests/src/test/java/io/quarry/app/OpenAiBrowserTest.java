package io.quarry.app;

import java.util.Map;

/** The browser's chat test with a node whose model is an OpenAI-compatible server (QUARRY_LLM_PROVIDER=openai). */
class OpenAiBrowserTest extends BrowserTest {

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LLM_PROVIDER", "openai");
  }

  @Override
  boolean allTests() {
    return false;
  }
}
