package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The result of one SQL query: at most 1,000 rows and 2 M characters of rows travel and are stored, each cell
 * at most 8,192 characters; {@code totalRows} is exact.
 *
 * @param columns {@code [{name, type}]}
 * @param rows    row arrays in column order, as JSON text (see {@link RowsJson})
 * @param note    what the reader must know about where the rows came from (such as a cached copy that could
 *                not be confirmed current), or null
 * @param sources the versions of the files it read: {@code [{table, url, etag, last_modified, size}]}
 * @param export  where a worker wrote the whole result for download, {@code {address, rows, bytes, format}}; null
 *                for a query's result
 */
public record QueryResult(
    String id,
    String conversationId,
    String sql,
    JsonArray columns,
    RowsJson rows,
    long totalRows,
    boolean truncated,
    long executionTimeMs,
    String createdAt,
    String note,
    JsonArray sources,
    JsonObject export) {

  /** A result whose sources are not known (yet). */
  public QueryResult(String id, String conversationId, String sql, JsonArray columns, RowsJson rows, long totalRows,
      boolean truncated, long executionTimeMs, String createdAt, String note) {
    this(id, conversationId, sql, columns, rows, totalRows, truncated, executionTimeMs, createdAt, note, new JsonArray());
  }

  public QueryResult(String id, String conversationId, String sql, JsonArray columns, RowsJson rows, long totalRows,
      boolean truncated, long executionTimeMs, String createdAt, String note, JsonArray sources) {
    this(id, conversationId, sql, columns, rows, totalRows, truncated, executionTimeMs, createdAt, note, sources, null);
  }

  /** Rows a result carries at most, on the bus and in storage. */
  public static final int MAX_ROWS = 1_000;
  /** Characters of row text a result carries: once its rows reach this, the rest are dropped, as past MAX_ROWS. */
  public static final int MAX_ROWS_CHARS = 2 << 20;
  /** Characters a cell keeps at most; a longer one is cut and says so (see {@link #cut}). */
  public static final int MAX_CELL_CHARS = 8_192;

  /** A cell's text cut to {@link #MAX_CELL_CHARS}, marked with how long it was. */
  public static String cut(String text) {
    int end = Character.isHighSurrogate(text.charAt(MAX_CELL_CHARS - 1)) ? MAX_CELL_CHARS - 1 : MAX_CELL_CHARS;
    return text.substring(0, end) + "… [cut: " + String.format(java.util.Locale.ROOT, "%,d", text.length())
        + " characters]";
  }

  public QueryResult withIdentity(String newId, String newConversationId, String newSql) {
    return new QueryResult(newId, newConversationId, newSql, columns, rows, totalRows, truncated, executionTimeMs,
        createdAt, note, sources, export);
  }

  /** At most {@link #MAX_ROWS} rows, {@code truncated} when rows were dropped; {@code totalRows} stays exact. */
  public QueryResult capped() {
    int size = rows.size();
    if (size <= MAX_ROWS) {
      return this;
    }
    return new QueryResult(id, conversationId, sql, columns, rows.first(MAX_ROWS), Math.max(totalRows, size), true,
        executionTimeMs, createdAt, note, sources, export);
  }

  /** The rows as values (parsed from their text). */
  public JsonArray rowValues() {
    return rows.toJsonArray();
  }

  public QueryResult stored(String newId, String newCreatedAt) {
    return new QueryResult(newId, conversationId, sql, columns, rows, totalRows, truncated, executionTimeMs,
        newCreatedAt, note, sources, export);
  }

  /** The same result, its {@code export} replaced. */
  public QueryResult withExport(JsonObject newExport) {
    return new QueryResult(id, conversationId, sql, columns, rows, totalRows, truncated, executionTimeMs, createdAt,
        note, sources, newExport);
  }

  /** The versions of the files it read. */
  public List<Source> sourceList() {
    return Source.of(sources);
  }

  /** The type DuckDB gave column {@code name}, upper case; empty when it has none. */
  public String columnType(String name) {
    return columns.stream().map(JsonObject.class::cast).filter(c -> name.equals(c.getString("name")))
        .map(c -> c.getString("type", "").toUpperCase(java.util.Locale.ROOT)).findFirst().orElse("");
  }

  /** Its columns' names, in order. */
  public List<String> columnNames() {
    return columns == null ? List.of() : columns.stream().map(c -> ((JsonObject) c).getString("name")).toList();
  }

  public JsonObject toJson() {
    JsonObject json = new JsonObject()
        .put("id", id)
        .put("conversation_id", conversationId)
        .put("sql", sql)
        .put("columns", columns)
        .put("rows", rows)
        .put("total_rows", totalRows)
        .put("truncated", truncated)
        .put("execution_time_ms", executionTimeMs)
        .put("created_at", createdAt)
        .put("note", note)
        .put("sources", sources == null ? new JsonArray() : sources);
    return export == null ? json : json.put("export", export);
  }

  public static QueryResult fromJson(JsonObject json) {
    return new QueryResult(
        json.getString("id"),
        json.getString("conversation_id"),
        json.getString("sql"),
        json.getJsonArray("columns", new JsonArray()),
        rows(json.getValue("rows")),
        json.getLong("total_rows", 0L),
        json.getBoolean("truncated", false),
        json.getLong("execution_time_ms", 0L),
        json.getString("created_at"),
        json.getString("note"),
        json.getJsonArray("sources", new JsonArray()),
        json.getJsonObject("export"));
  }

  /** Rows as a local delivery hands them over (the text itself), or as JSON from elsewhere (a JSON array). */
  private static RowsJson rows(Object value) {
    if (value instanceof RowsJson text) {
      return text;
    }
    if (value instanceof JsonArray array) {
      return RowsJson.of(array);
    }
    if (value == null) {
      return RowsJson.EMPTY;
    }
    throw QuarryException.badRequest("Field 'rows' must be an array of rows");
  }
}
