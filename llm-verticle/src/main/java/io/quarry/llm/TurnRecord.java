package io.quarry.llm;

import io.vertx.core.json.JsonArray;

/** What a turn did, stored with its assistant message so that a reload redraws it. */
final class TurnRecord {
  final JsonArray sql = new JsonArray();
  final JsonArray resultIds = new JsonArray();
  final JsonArray charts = new JsonArray();
  int sqlFailures;
}
