package io.quarry.llm;

import io.quarry.bus.QueryResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What the model is told about a result: the chart design seed's summary line, the result id it can
 * chart later without new SQL, the columns and the first rows, bounded in size.
 */
final class ResultSummary {

  static final int SAMPLE_ROWS = 3;
  static final int TOOL_ROWS = 20;
  static final int MAX_ROWS_CHARS = 8_000;

  private ResultSummary() {
  }

  private static String line(QueryResult r, JsonArray all) {
    String columns = String.join(", ", r.columnNames());
    JsonArray sample = new JsonArray(all.getList().subList(0, Math.min(SAMPLE_ROWS, all.size())));
    return "Query executed successfully. Returned " + r.totalRows() + " rows with columns: [" + columns
        + "]. Sample data: " + sample.encode();
  }

  static JsonObject toolResponse(QueryResult r) {
    JsonArray all = r.rowValues();
    JsonArray rows = new JsonArray();
    int chars = 0;
    for (Object row : all) {
      if (rows.size() >= TOOL_ROWS || chars > MAX_ROWS_CHARS) {
        break;
      }
      chars += ((JsonArray) row).encode().length();
      rows.add(row);
    }
    JsonObject response = new JsonObject()
        .put("result_id", r.id())
        .put("summary", line(r, all))
        .put("columns", r.columns())
        .put("total_rows", r.totalRows())
        .put("truncated", r.truncated())
        .put("rows", rows)
        .put("rows_shown", rows.size());
    // The answer must pass on what the reader needs to know of the rows' origin (a cached copy, say).
    return r.note() == null ? response : response.put("note", r.note());
  }
}
