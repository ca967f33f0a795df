package io.quarry.llm;

import io.vertx.core.json.JsonArray;

/**
 * One request of a turn: the system prompt, the conversation as it goes to the model — in Gemini's {@code contents}
 * shape, the one Quarry stores its tool rounds in ({@code role} user or model; parts of text, functionCall,
 * functionResponse) — and whether the model may call tools.
 */
record ModelRequest(String systemPrompt, JsonArray contents, boolean toolsOff) {
}
