package io.quarry.chat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Column;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * What MCP's tools and resources answer, from Quarry's records: the fields an agent needs under names it can guess
 * (a dataset's SQL name is its {@code table}), nothing of the browser's own (display types, tool rounds, chart specs).
 */
final class McpShapes {

  private McpShapes() {
  }

  static JsonObject conversation(Conversation c) {
    return new JsonObject().put("id", c.id()).put("title", c.title()).put("created_at", c.createdAt())
        .put("updated_at", c.updatedAt());
  }

  static JsonObject dataset(Dataset d) {
    return new JsonObject().put("id", d.id()).put("table", d.name()).put("url", d.url()).put("status", d.status())
        .put("error", d.errorMessage()).put("row_count", d.rowCount()).put("columns", columns(d.schema()))
        .put("file_size", d.fileSize()).put("version", d.etag());
  }

  /** {@code [{name, type}]} of a dataset's schema or a result's columns. */
  static JsonArray columns(JsonArray columns) {
    return new JsonArray(Column.of(columns).stream().map(Column::toJson).toList());
  }

  static JsonObject message(ChatMessage m) {
    return new JsonObject().put("id", m.id()).put("role", m.role()).put("content", m.content())
        .put("status", m.status()).put("notice", m.notice()).put("sql", sql(m)).put("result_ids", ids(m))
        .put("created_at", m.createdAt());
  }

  /** What {@code ask} answers once its answer has ended. */
  static JsonObject answer(ChatMessage m) {
    return new JsonObject().put("message_id", m.id()).put("status", m.status())
        .put("text", m.content() == null ? "" : m.content()).put("notice", m.notice()).put("sql", sql(m))
        .put("result_ids", ids(m)).put("numbers", m.numbers());
  }

  /** The statements an answer ran, in order. */
  private static JsonArray sql(ChatMessage m) {
    JsonArray texts = new JsonArray();
    if (m.sql() != null) {
      m.sql().forEach(s -> texts.add(String.valueOf(s)));
    }
    return texts;
  }

  private static JsonArray ids(ChatMessage m) {
    return m.resultIds() == null ? new JsonArray() : m.resultIds().copy();
  }

  /** A stored result's rows as CSV (RFC 4180): a header of its column names, a line for each row. */
  static String csv(QueryResult result) {
    StringBuilder out = new StringBuilder();
    List<String> names = result.columnNames();
    for (int i = 0; i < names.size(); i++) {
      out.append(i == 0 ? "" : ",").append(cell(names.get(i)));
    }
    out.append("\r\n");
    for (Object row : result.rowValues()) {
      JsonArray values = (JsonArray) row;
      for (int i = 0; i < values.size(); i++) {
        out.append(i == 0 ? "" : ",").append(cell(values.getValue(i)));
      }
      out.append("\r\n");
    }
    return out.toString();
  }

  private static String cell(Object value) {
    if (value == null) {
      return "";
    }
    String text = String.valueOf(value);
    boolean quoted = text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0
        || text.indexOf('\r') >= 0;
    return quoted ? '"' + text.replace("\"", "\"\"") + '"' : text;
  }
}
