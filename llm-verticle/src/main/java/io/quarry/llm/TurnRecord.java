package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import java.util.LinkedHashMap;
import java.util.Map;

/** What a turn did, stored with its assistant message so that a reload redraws it. */
final class TurnRecord {
  final JsonArray sql = new JsonArray();
  final JsonArray resultIds = new JsonArray();
  final JsonArray charts = new JsonArray();
  int sqlFailures;
  /** The results the turn produced or referred to, by id: the values its answer's numbers are checked against. */
  final Map<String, QueryResult> results = new LinkedHashMap<>();

  /** A continuation's record starts with what the answer it goes on from did. */
  void startFrom(io.quarry.bus.ChatMessage continued) {
    addAll(sql, continued.sql());
    addAll(resultIds, continued.resultIds());
    addAll(charts, continued.charts());
  }

  private static void addAll(JsonArray to, JsonArray from) {
    if (from != null) {
      to.addAll(from);
    }
  }
}
