package io.quarry.llm;

import io.vertx.core.json.JsonObject;

/** A tool the model called; {@code id} pairs the result with the call (null when the provider gives none). */
record ToolCall(String id, String name, JsonObject args) {
}
