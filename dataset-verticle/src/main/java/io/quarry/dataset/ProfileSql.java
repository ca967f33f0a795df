package io.quarry.dataset;

import static io.quarry.dataset.ChartAxis.quote;

import io.quarry.bus.Profile;
import java.util.List;
import java.util.Locale;

/**
 * The statements a profile runs, each an ordinary query over the conversation's table (so a worker fetches the columns
 * it reads, as for any query). They compute what DuckDB's {@code SUMMARIZE} does, with its functions: {@code count},
 * {@code min(c)::VARCHAR}, {@code max(c)::VARCHAR} and {@code approx_count_distinct}.
 */
final class ProfileSql {

  /** Columns one scan reads at most: a row of four figures per column stays small. */
  static final int COLUMNS_PER_SCAN = 40;

  private ProfileSql() {
  }

  /** Reads the table and none of its columns: its file is made current, moving its footer alone. */
  static String footerOnly(String table) {
    return "SELECT count(*) FROM " + quote(table);
  }

  /**
   * One row: per column, its non-null count, min and max (unless the footer gave them: {@code known}) and its
   * distinct values, four cells each (null where not asked).
   */
  static String scan(String table, List<String> columns, List<Boolean> known) {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      String c = quote(columns.get(i));
      sql.append(i == 0 ? "" : ", ").append(known.get(i)
          ? "NULL, NULL, NULL, " : "count(" + c + "), CAST(min(" + c + ") AS VARCHAR), CAST(max(" + c
              + ") AS VARCHAR), ")
          .append("approx_count_distinct(").append(c).append(")");
    }
    return sql.append(" FROM ").append(quote(table)).toString();
  }

  /** The column's most frequent values, NULL among them, most first (ties by value). */
  static String frequent(String table, String column) {
    String c = quote(column);
    return "SELECT " + c + " AS value, count(*) AS count FROM " + quote(table) + " GROUP BY ALL ORDER BY count DESC, "
        + c + " NULLS LAST LIMIT " + Profile.TOP_VALUES;
  }

  /** Equal-width bins (DuckDB's {@code equi_width_bins}, at round bounds), each with its upper bound. */
  static String histogram(String table, String column) {
    String c = quote(column);
    String t = quote(table);
    return "SELECT unnest(map_keys(h)) AS upper, unnest(map_values(h)) AS count FROM (SELECT histogram(" + c
        + ", (SELECT equi_width_bins(min(" + c + "), max(" + c + "), " + Profile.BINS + ", true) FROM " + t
        + ")) AS h FROM " + t + " WHERE " + c + " IS NOT NULL)";
  }

  /** A number, date or timestamp: what equal-width bins can cut. */
  static boolean binnable(String type) {
    String t = type.toUpperCase(Locale.ROOT);
    return ChartAxis.numeric(type) || t.equals("DATE") || t.startsWith("TIMESTAMP");
  }
}
