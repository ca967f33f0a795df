package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.Bus;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Export;
import io.quarry.bus.QueryResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * MCP's {@code run_sql}: the statement runs as {@code api.query.run} runs it (stored, at most
 * {@link QueryResult#MAX_ROWS} rows kept); the caller gets its first {@code max_rows} rows and no more than
 * {@code maxChars} characters of them, an agent's context being smaller than a browser's table. Past the stored rows
 * (up to {@code maxRows}), the rest come from the statement run again as a JSON export limited to what was asked.
 */
final class McpSql {

  private final Bus bus;
  private final ChatSettings.McpSettings limits;

  McpSql(Bus bus, ChatSettings.McpSettings limits) {
    this.bus = bus;
    this.limits = limits;
  }

  Future<JsonObject> run(McpCall call, String conversationId, String sql, int maxRows) {
    return ApiOps.QUERY_RUN.call(bus, new Query(call.userId(), conversationId, sql))
        .compose(result -> rows(call, result, maxRows).map(rows -> answer(result, rows, maxRows)));
  }

  /** The stored rows, or, when more were asked for than were stored and there are more, the export's. */
  private Future<JsonArray> rows(McpCall call, QueryResult result, int maxRows) {
    JsonArray stored = result.rowValues();
    if (maxRows <= stored.size() || stored.size() >= result.totalRows()) {
      return Future.succeededFuture(stored);
    }
    String limited = "SELECT * FROM (\n" + withoutTrailingSemicolons(result.sql()) + "\n) LIMIT " + maxRows;
    return ApiOps.QUERY_EXPORT.call(bus, new ExportQuery(call.userId(), result.conversationId(), limited, "json"))
        .compose(exported -> read(Export.File.fromJson(exported.export()), Buffer.buffer()))
        .map(exported -> arrays(exported, result.columnNames()));
  }

  private JsonObject answer(QueryResult result, JsonArray rows, int maxRows) {
    JsonArray kept = new JsonArray();
    long chars = 2;
    String cut = null;
    for (Object row : rows) {
      if (kept.size() == maxRows) {
        cut = "max_rows";
        break;
      }
      chars += row.toString().length() + 1;
      if (chars > limits.maxChars()) {
        cut = "max_chars";
        break;
      }
      kept.add(row);
    }
    boolean truncated = kept.size() < result.totalRows();
    return new JsonObject().put("result_id", result.id()).put("columns", McpShapes.columns(result.columns()))
        .put("rows", kept).put("returned_rows", kept.size()).put("total_rows", result.totalRows())
        .put("truncated", truncated).put("truncated_by", truncated ? cut == null ? "max_rows" : cut : null)
        .put("execution_time_ms", result.executionTimeMs()).put("sources", result.sources()).put("note", result.note());
  }

  private Future<Buffer> read(Export.File file, Buffer into) {
    EventBus events = bus.eventBus();
    if (into.length() >= file.bytes()) {
      return events.request(file.address(), Export.done(), Deliveries.storage()).map(into);
    }
    return events.<Buffer>request(file.address(), Export.chunkAt(into.length()), Deliveries.storage())
        .map(Message::body)
        .compose(chunk -> chunk.length() == 0 ? Future.succeededFuture(into) : read(file, into.appendBuffer(chunk)));
  }

  /** Quarry's JSON export is an array of objects keyed by column: each becomes the row's values in column order. */
  private static JsonArray arrays(Buffer exported, List<String> columns) {
    JsonArray rows = new JsonArray();
    for (Object object : new JsonArray(exported)) {
      JsonObject row = (JsonObject) object;
      rows.add(new JsonArray(columns.stream().map(row::getValue).toList()));
    }
    return rows;
  }

  private static String withoutTrailingSemicolons(String sql) {
    String s = sql.strip();
    while (s.endsWith(";")) {
      s = s.substring(0, s.length() - 1).strip();
    }
    return s;
  }
}
