package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL for a worker: the statement and the only tables it may read, each a name bound to a file's URL.
 *
 * @param tables table name → URL, in the order the datasets were added
 * @param userId whom it runs for: a node that holds queries while its workers are busy serves users in turn;
 *     empty for a caller that acts for nobody in particular (they share one turn)
 * @param conversationId the conversation it runs in, whose browsers hear how its data is coming while it is
 *     fetched ({@link ChatEvents#QUERY_PROGRESS}); empty for none
 * @param stopKey what {@link QueryStops#publish} names to stop it (a chat turn's); empty for none
 * @param export its whole result written to a file to download, instead of its first rows; null for a query
 * @param recorded the versions of the tables' files their datasets record (the ETag, or the Last-Modified of a server
 *     that gives none, and the size): a worker's copy of another version is not used unasked, however recently it was
 *     confirmed (empty: none known)
 * @param ends the last bytes of tables' files as adding them just read them, for a worker holding no copy to start
 *     from (empty: none)
 * @param formats URL → the file's format, for the files that are not Parquet (the others: none)
 * @param statistics a table whose copy's footer statistics are the answer, instead of the statement's rows (the
 *     statement still says which files to make current: one that reads the table and no column moves its footer alone);
 *     empty for a query. The answer's rows are {@link #STATISTICS_COLUMNS}, one per column of the table, and none when
 *     DuckDB cannot decode the footer's statistics.
 * @param columnsOf a table whose columns are the answer, instead of the statement's rows: {@link #COLUMNS_OF_COLUMNS},
 *     one row per column, every column (no row limit), as the table's view shows them; read from its copy's footer by
 *     the worker itself, which opens no database of the query's for it (the statement still says which files to make
 *     current, as for {@code statistics}). A file DuckDB cannot open fails as a query reading it would. Empty for a
 *     query.
 */
public record QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId,
    String conversationId, String stopKey, Export export, List<Source> recorded, List<FileEnd> ends,
    Map<String, DataFormat> formats, String statistics, String columnsOf) {

  /**
   * A statistics answer's columns: the column's name and DuckDB type; its nulls, min and max over every row group
   * (each null unless every row group's statistics hold it exactly); the compressed bytes of its column chunks.
   */
  public static final java.util.List<String> STATISTICS_COLUMNS = List.of("name", "type", "nulls", "min", "max",
      "bytes");
  /** A columns answer's columns, named as DESCRIBE names them. */
  public static final List<String> COLUMNS_OF_COLUMNS = List.of("column_name", "column_type");

  public QueryRequest {
    recorded = recorded == null ? List.of() : List.copyOf(recorded);
    ends = ends == null ? List.of() : List.copyOf(ends);
    formats = formats == null ? Map.of() : Map.copyOf(formats);
    statistics = statistics == null ? "" : statistics;
    columnsOf = columnsOf == null ? "" : columnsOf;
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey, Export export, List<Source> recorded, List<FileEnd> ends, Map<String, DataFormat> formats,
      String statistics) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, export, recorded, ends, formats, statistics, "");
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey, Export export, List<Source> recorded, List<FileEnd> ends, Map<String, DataFormat> formats) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, export, recorded, ends, formats, "");
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey, Export export, List<Source> recorded, List<FileEnd> ends) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, export, recorded, ends, Map.of());
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey, Export export, List<Source> recorded) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, export, recorded, List.of());
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey, Export export) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, export, List.of());
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId,
      String stopKey) {
    this(sql, tables, timeoutMs, userId, conversationId, stopKey, null);
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs) {
    this(sql, tables, timeoutMs, "", "", "");
  }

  public QueryRequest(String sql, Map<String, String> tables, long timeoutMs, String userId, String conversationId) {
    this(sql, tables, timeoutMs, userId, conversationId, "");
  }

  /** The same query with less time left, e.g. after waiting for a worker. */
  public QueryRequest withTimeout(long newTimeoutMs) {
    return new QueryRequest(sql, tables, newTimeoutMs, userId, conversationId, stopKey, export, recorded, ends,
        formats, statistics, columnsOf);
  }

  public JsonObject toJson() {
    JsonArray list = new JsonArray();
    tables.forEach((name, url) -> {
      JsonObject table = new JsonObject().put("name", name).put("url", url);
      if (formats.containsKey(url)) {
        table.put("format", formats.get(url).wire());
      }
      list.add(table);
    });
    return new JsonObject().put("sql", sql).put("tables", list).put("timeout_ms", timeoutMs)
        .put(Keys.USER_ID, userId).put(Keys.CONVERSATION_ID, conversationId).put(Keys.STOP_KEY, stopKey)
        .put(Keys.EXPORT, export == null ? null : export.toJson()).put("recorded", Source.toJson(recorded))
        .put("ends", ends.isEmpty() ? null : FileEnd.toJson(ends))
        .put("statistics", statistics.isEmpty() ? null : statistics)
        .put("columns_of", columnsOf.isEmpty() ? null : columnsOf);
  }

  public static QueryRequest fromJson(JsonObject json) {
    Map<String, String> tables = new LinkedHashMap<>();
    Map<String, DataFormat> formats = new LinkedHashMap<>();
    for (Object item : json.getJsonArray("tables", new JsonArray())) {
      JsonObject table = (JsonObject) item;
      tables.put(table.getString("name"), table.getString("url"));
      DataFormat format = DataFormat.of(table.getString("format"));
      if (format != DataFormat.PARQUET) {
        formats.put(table.getString("url"), format);
      }
    }
    return new QueryRequest(json.getString("sql"), tables, json.getLong("timeout_ms", 0L),
        json.getString(Keys.USER_ID, ""), json.getString(Keys.CONVERSATION_ID, ""), json.getString(Keys.STOP_KEY, ""),
        Export.fromJson(json.getJsonObject(Keys.EXPORT)), Source.of(json.getJsonArray("recorded")),
        FileEnd.of(json.getJsonArray("ends")), formats, json.getString("statistics", ""),
        json.getString("columns_of", ""));
  }

  /** The format of the file at {@code url}: Parquet unless the request says otherwise. */
  public DataFormat formatOf(String url) {
    return formats.getOrDefault(url, DataFormat.PARQUET);
  }

  /** The last bytes of the file at {@code url} that came with the request, or null. */
  public FileEnd endOf(String url) {
    return ends.stream().filter(end -> end.url().equals(url)).findFirst().orElse(null);
  }

  /** The version its dataset records of the file at {@code url}, or null. */
  public Source recordedOf(String url) {
    return recorded.stream().filter(source -> source.url().equals(url)).findFirst().orElse(null);
  }
}
