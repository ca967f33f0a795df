package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Which provider a node's chat uses, and when it can reach it. */
class LlmSettingsTest {

  @Test
  @DisplayName("gemini by default: reachable with GEMINI_API_KEY, at Google's endpoint unless another is set")
  void gemini() {
    assertThat(LlmSettings.from(new JsonObject()).reach()).isEmpty();
    ModelSettings reach = LlmSettings.from(new JsonObject().put("apiKey", "k")).reach().orElseThrow();
    assertThat(reach.provider()).isEqualTo("gemini");
    assertThat(reach.baseUrl()).isEqualTo(LlmSettings.GOOGLE);
    assertThat(reach.model()).isEqualTo("gemini-2.5-flash");
  }

  @Test
  @DisplayName("openai: reachable with a key, or with a base URL alone (a local server needs no key); its own model")
  void openAi() {
    JsonObject openai = new JsonObject().put("provider", "openai");
    assertThat(LlmSettings.from(openai.copy().put("apiKey", "a Gemini key is not OpenAI's")).reach()).isEmpty();
    ModelSettings keyed = LlmSettings.from(openai.copy().put("openaiApiKey", "sk")).reach().orElseThrow();
    assertThat(keyed.baseUrl()).as("OpenAI's own, chosen by OpenAiModel").isEmpty();
    assertThat(keyed.model()).isEqualTo("gpt-4o-mini");
    ModelSettings local = LlmSettings.from(openai.copy().put("openaiBaseUrl", "http://127.0.0.1:11434/v1")
        .put("openaiModel", "qwen2.5:14b")).reach().orElseThrow();
    assertThat(local.apiKey()).isEmpty();
    assertThat(local.model()).isEqualTo("qwen2.5:14b");
    assertThat(LlmSettings.from(openai.copy().put("openaiModel", "qwen2.5:14b")).model()).isEqualTo("qwen2.5:14b");
  }

  @Test
  @DisplayName("another provider stops the start, naming the setting")
  void unknown() {
    assertThatThrownBy(() -> LlmSettings.from(new JsonObject().put("provider", "anthropic")))
        .hasMessage("llm.provider (QUARRY_LLM_PROVIDER) must be gemini or openai, not 'anthropic'");
  }
}
