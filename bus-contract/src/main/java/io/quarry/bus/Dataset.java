package io.quarry.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A data file attached to a conversation under a SQL table name.
 *
 * @param schema columns as {@code [{name, type, friendly_type}]}
 * @param status {@code loading}, {@code ready} or {@code error}
 * @param format what kind of file it is ({@link DataFormat#wire}): found from its bytes when it loads
 */
public record Dataset(
    String id,
    String conversationId,
    String url,
    String name,
    Long rowCount,
    Integer columnCount,
    JsonArray schema,
    String status,
    String errorMessage,
    Long fileSize,
    String etag,
    String createdAt,
    String updatedAt,
    String format) {

  public static final String LOADING = "loading";
  public static final String READY = "ready";
  public static final String ERROR = "error";

  public Dataset {
    format = format == null ? DataFormat.PARQUET.wire() : format;
  }

  /** Loading, as an add or a refresh begins it: its format is learned when it loads. */
  public Dataset(String id, String conversationId, String url, String name, Long rowCount, Integer columnCount,
      JsonArray schema, String status, String errorMessage, Long fileSize, String etag, String createdAt,
      String updatedAt) {
    this(id, conversationId, url, name, rowCount, columnCount, schema, status, errorMessage, fileSize, etag,
        createdAt, updatedAt, null);
  }

  public Dataset ready(long rows, JsonArray columns, long size, String newEtag, DataFormat newFormat) {
    return new Dataset(id, conversationId, url, name, rows, columns.size(), columns, READY, null, size, newEtag,
        createdAt, updatedAt, newFormat.wire());
  }

  public DataFormat dataFormat() {
    return DataFormat.of(format);
  }

  public Dataset failed(String message) {
    return new Dataset(id, conversationId, url, name, rowCount, columnCount, schema, ERROR, message, fileSize, etag,
        createdAt, updatedAt, format);
  }

  /** A failed add: in error without ever having loaded. It holds no slot of the conversation's limit. */
  public boolean neverLoaded() {
    return ERROR.equals(status) && rowCount == null;
  }

  /** The same dataset at a fresh link to its object: its id, name and history kept (see {@link UrlSecrets#object}). */
  public Dataset at(String freshUrl) {
    return new Dataset(id, conversationId, freshUrl, name, rowCount, columnCount, schema, LOADING, null, fileSize, etag,
        createdAt, updatedAt, format);
  }

  public Dataset loading() {
    return new Dataset(id, conversationId, url, name, rowCount, columnCount, schema, LOADING, null, fileSize, etag,
        createdAt, updatedAt, format);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("conversation_id", conversationId)
        .put("url", url)
        .put("name", name)
        .put("row_count", rowCount)
        .put("column_count", columnCount)
        .put("schema", schema == null ? new JsonArray() : schema)
        .put("status", status)
        .put("error_message", errorMessage)
        .put("file_size", fileSize)
        .put("etag", etag)
        .put("created_at", createdAt)
        .put("updated_at", updatedAt)
        .put("format", format);
  }

  public static Dataset fromJson(JsonObject json) {
    return new Dataset(
        json.getString("id"),
        json.getString("conversation_id"),
        json.getString("url"),
        json.getString("name"),
        json.getLong("row_count"),
        json.getInteger("column_count"),
        json.getJsonArray("schema", new JsonArray()),
        json.getString("status"),
        json.getString("error_message"),
        json.getLong("file_size"),
        json.getString("etag"),
        json.getString("created_at"),
        json.getString("updated_at"),
        json.getString("format"));
  }
}
