package io.quarry.chat;

import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.vertx.core.MultiMap;

/**
 * A download follows the table's sort: {@code sort=<column>&dir=asc|desc} exports the result's SQL ordered by that
 * column, as the table's own re-sort does (nulls last). Only a column of the result is accepted, quoted as a name,
 * and the SQL it wraps runs on the worker's sandbox like any other; without a sort the result's own order stays.
 */
final class ExportOrder {

  private ExportOrder() {
  }

  /** The SQL to export: the result's own, or it sorted as asked. */
  static String sql(QueryResult result, MultiMap params) {
    String column = params.get("sort");
    String dir = params.get("dir");
    if (column == null) {
      if (dir != null) {
        throw QuarryException.badRequest("Query parameter 'dir' needs 'sort'");
      }
      return result.sql();
    }
    boolean known = result.columnNames().contains(column);
    if (!known) {
      throw QuarryException.badRequest("Query parameter 'sort' must name a column of the result");
    }
    if (dir != null && !dir.equals("asc") && !dir.equals("desc")) {
      throw QuarryException.badRequest("Query parameter 'dir' must be asc or desc");
    }
    // The newlines end a trailing line comment; a trailing semicolon would end the statement inside the brackets.
    String inner = result.sql().strip().replaceAll(";+\\s*$", "");
    return "SELECT * FROM (\n" + inner + "\n) AS sorted_result ORDER BY \"" + column.replace("\"", "\"\"") + "\" "
        + ("desc".equals(dir) ? "DESC" : "ASC") + " NULLS LAST";
  }
}
