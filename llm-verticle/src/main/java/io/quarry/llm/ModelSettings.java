package io.quarry.llm;

/**
 * How to reach the configured model.
 *
 * @param provider {@code gemini} or {@code openai}
 * @param baseUrl the provider's API root (Gemini's, or an OpenAI-compatible server's ending in {@code /v1})
 * @param apiKey may be empty for an OpenAI-compatible server that asks for none (a local one)
 * @param idleTimeoutMs how long a response may go quiet before it fails
 */
record ModelSettings(String provider, String baseUrl, String apiKey, String model, long idleTimeoutMs, int retries,
    long retryBackoffMs) {

  static final String GEMINI = "gemini";
  static final String OPENAI = "openai";
}
