package io.quarry.worker;

import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a table's footer says of each column with no scan ({@link QueryRequest#statistics}): its nulls, min and max
 * over every row group's statistics, read with DuckDB's {@code parquet_metadata()} (which reads the footer alone, so a
 * sparse copy's holes are never read), and the compressed bytes of its chunks, which a profile's budget weighs. A
 * figure some row group lacks, or holds inexactly, is null: its caller scans for it. DuckDB decodes every statistic
 * here and fails on some other writers' (duckdb/duckdb#15467): then no column has any, and the caller scans them all.
 */
final class FooterStatistics {

  private static final Logger log = LoggerFactory.getLogger(FooterStatistics.class);

  /**
   * Types whose statistics DuckDB prints as it prints the values: the footer's min and max are then SUMMARIZE's.
   * FLOAT and DOUBLE are not here: a footer's min and max leave NaN out, and DuckDB's order puts it last.
   */
  private static final Set<String> ORDERED = Set.of("BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT",
      "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS",
      "TIMESTAMP_NS", "TIMESTAMP WITH TIME ZONE", "VARCHAR");

  private FooterStatistics() {
  }

  /** One row per column of {@code table} (a view over {@code file}), as {@link QueryRequest#STATISTICS_COLUMNS}. */
  static QueryResult read(Connection connection, String table, Path file) throws SQLException {
    long started = System.nanoTime();
    List<String[]> columns = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT column_name, column_type FROM (DESCRIBE "
            + DuckInstances.identifier(table) + ") LIMIT " + QueryResult.MAX_ROWS)) {
      while (rs.next()) {
        columns.add(new String[] {rs.getString(1), rs.getString(2)});
      }
    }
    JsonArray rows = new JsonArray();
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql(file, columns))) {
      while (rs.next()) {
        // By position: position, groups, bytes, chunks, then each figure with how many chunks held it.
        String[] column = columns.get(rs.getInt(1));
        rows.add(new JsonArray().add(column[0]).add(column[1]).add(whole(rs, 5)).add(whole(rs, 7)).add(whole(rs, 9))
            .add(rs.getLong(3)));
      }
    } catch (SQLException e) {
      // The columns stand, with no figures and no weight: the caller scans them all.
      log.debug("The footer's statistics of {} did not decode: {}", table, e.getMessage());
      rows.clear();
      columns.forEach(column -> rows.add(new JsonArray().add(column[0]).add(column[1]).addNull().addNull().addNull()
          .addNull()));
    }
    JsonArray names = new JsonArray();
    QueryRequest.STATISTICS_COLUMNS.forEach(name -> names.add(new JsonObject().put("name", name).put("type",
        name.equals("nulls") || name.equals("bytes") ? "BIGINT" : "VARCHAR")));
    return new QueryResult(null, null, "", names, RowsJson.of(rows), rows.size(), false,
        (System.nanoTime() - started) / 1_000_000, null, null);
  }

  /** The figure in column {@code at} if every row group held it (its count of chunks follows it): otherwise none. */
  private static Object whole(ResultSet rs, int at) throws SQLException {
    long groups = rs.getLong(2);
    Object value = rs.getObject(at);
    boolean every = rs.getLong(4) == groups && rs.getLong(at + 1) == groups;
    return !every || value == null ? null : value instanceof Number n ? (Object) n.longValue() : value.toString();
  }

  /** One statement over the footer, read once: a row per column, with its position. */
  private static String sql(Path file, List<String[]> columns) {
    StringBuilder sql = new StringBuilder("WITH m AS MATERIALIZED (SELECT row_group_id, path_in_schema, type,"
        + " stats_null_count, stats_min_value, stats_max_value, min_is_exact, max_is_exact, total_compressed_size"
        + " FROM parquet_metadata(" + DuckInstances.literal(file.toString()) + ")), g AS (SELECT"
        + " count(DISTINCT row_group_id) AS groups FROM m)");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? " " : " UNION ALL ").append(column(i, columns.get(i)[0], columns.get(i)[1]));
    }
    return sql.toString();
  }

  private static String column(int position, String name, String type) {
    String own = "path_in_schema = " + DuckInstances.literal(name) + " AND type IS DISTINCT FROM 'INT96'";
    boolean ordered = ORDERED.contains(type.toUpperCase(Locale.ROOT)) || type.startsWith("DECIMAL(");
    String min = ordered ? "TRY_CAST(stats_min_value AS " + type + ")" : "NULL";
    String max = ordered ? "TRY_CAST(stats_max_value AS " + type + ")" : "NULL";
    return "SELECT " + position + " AS position, (SELECT groups FROM g) AS groups,"
        + " coalesce(sum(total_compressed_size), 0) AS bytes,"
        + " count(*) FILTER (WHERE " + own + ") AS chunks,"
        + " sum(stats_null_count) FILTER (WHERE " + own + ") AS nulls,"
        + " count(stats_null_count) FILTER (WHERE " + own + ") AS null_chunks,"
        + " CAST(min(" + min + ") FILTER (WHERE " + own + " AND min_is_exact IS NOT false) AS VARCHAR) AS min,"
        + " count(" + min + ") FILTER (WHERE " + own + " AND min_is_exact IS NOT false) AS min_chunks,"
        + " CAST(max(" + max + ") FILTER (WHERE " + own + " AND max_is_exact IS NOT false) AS VARCHAR) AS max,"
        + " count(" + max + ") FILTER (WHERE " + own + " AND max_is_exact IS NOT false) AS max_chunks"
        + " FROM m WHERE path_in_schema = " + DuckInstances.literal(name) + " OR starts_with(path_in_schema, "
        + DuckInstances.literal(name + ", ") + ")";
  }
}
