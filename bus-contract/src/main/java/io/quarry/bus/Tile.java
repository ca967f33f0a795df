package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * One tile of a {@link Board}: a chart or a table of a result, with the tile's own copy of what it shows (at most
 * {@link QueryResult#MAX_ROWS} rows, as a stored result), so that it outlives its result and its conversation. A
 * re-run replaces the copy, its sources and {@code ranAt}.
 *
 * @param position       0-based, its place in the board's grid
 * @param kind           {@link #CHART} or {@link #TABLE}
 * @param chart          for a chart, what it draws ({@link ChartData}: its spec and the data computed of every row);
 *                       null for a table
 * @param conversationId the conversation whose datasets its SQL reads; null once that conversation is deleted
 * @param sources        the versions of the files its SQL read at its last run, as a result's ({@link Source}): the
 *                       URL as stored (a page shows it redacted)
 * @param stale          whether a file it read has a newer version than it read, as its conversation's datasets record
 *                       them now (no server asked, no query run); null where not looked at (storage's answers)
 * @param schedule       its schedule as its board's page shows it ({@link #scheduleJson}); null when it has none or
 *                       where not looked at (storage's answers)
 */
public record Tile(String id, String boardId, int position, String title, String kind, JsonObject chart, String sql,
    String conversationId, JsonArray sources, JsonArray columns, RowsJson rows, long totalRows, boolean truncated,
    String ranAt, Boolean stale, JsonObject schedule) {

  public static final String CHART = "chart";
  public static final String TABLE = "table";

  public static boolean knownKind(String kind) {
    return CHART.equals(kind) || TABLE.equals(kind);
  }

  /** The same tile, said to be stale or not. */
  public Tile withStale(boolean now) {
    return new Tile(id, boardId, position, title, kind, chart, sql, conversationId, sources, columns, rows, totalRows,
        truncated, ranAt, now, schedule);
  }

  /** The same tile, with its schedule as {@link #scheduleJson} makes it (null: none). */
  public Tile withSchedule(JsonObject shown) {
    return new Tile(id, boardId, position, title, kind, chart, sql, conversationId, sources, columns, rows, totalRows,
        truncated, ranAt, stale, shown);
  }

  /**
   * What a tile shows of its schedule: when it runs, and its last finished run's outcome and comparison summary (no
   * rows, no webhook), or null before its first.
   */
  public static JsonObject scheduleJson(Schedule s, ScheduleRun last) {
    JsonObject json = new JsonObject().put(Keys.ID, s.id()).put("every", s.cadence().every())
        .put("at", s.cadence().at()).put("time_zone", s.cadence().zone().getId()).put("next_run_at", s.nextRunAt())
        .put("paused", s.paused());
    return json.put("last_run", last == null ? null : new JsonObject().put("due_at", last.dueAt())
        .put("finished_at", last.finishedAt()).put("status", last.status()).put("summary", last.summary())
        .put("reason", last.reason()));
  }

  /** Its columns' names, in order, as a result's ({@link QueryResult#columnNames}). */
  public java.util.List<String> columnNames() {
    return columns == null ? java.util.List.of()
        : columns.stream().map(c -> ((JsonObject) c).getString("name")).toList();
  }

  /** The versions of the files it read at its last run. */
  public java.util.List<Source> sourceList() {
    return Source.of(sources);
  }

  public JsonObject toJson() {
    return new JsonObject().put(Keys.ID, id).put(Keys.BOARD_ID, boardId).put("position", position)
        .put(Keys.TITLE, title).put("kind", kind).put("chart", chart).put(Keys.SQL, sql)
        .put(Keys.CONVERSATION_ID, conversationId).put("sources", sources).put("columns", columns).put("rows", rows)
        .put("total_rows", totalRows).put("truncated", truncated).put("ran_at", ranAt).put("stale", stale)
        .put("schedule", schedule);
  }

  public static Tile fromJson(JsonObject json) {
    Object rows = json.getValue("rows");
    return new Tile(json.getString(Keys.ID), json.getString(Keys.BOARD_ID), json.getInteger("position", 0),
        json.getString(Keys.TITLE), json.getString("kind"), json.getJsonObject("chart"), json.getString(Keys.SQL),
        json.getString(Keys.CONVERSATION_ID), json.getJsonArray("sources", new JsonArray()),
        json.getJsonArray("columns", new JsonArray()),
        rows instanceof RowsJson text ? text : rows instanceof JsonArray array ? RowsJson.of(array) : RowsJson.EMPTY,
        json.getLong("total_rows", 0L), json.getBoolean("truncated", false), json.getString("ran_at"),
        json.getBoolean("stale"), json.getJsonObject("schedule"));
  }
}
