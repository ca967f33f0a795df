package io.quarry.worker;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A table over a sparse copy is a view that selects the columns the copy holds and, in place of each column it
 * does not, {@code error('…')} cast to the column's type. DuckDB reads only the columns a query projects, so it
 * never reads a hole: a query that touches a missing column fails with that error instead of reading zeros, and
 * the worker fetches the column and runs it again. So an answer never depends on a byte that was not fetched.
 */
final class Placeholders {

  private static final String MARK = "quarry-unfetched-column:";
  private static final Pattern FIRED = Pattern.compile(Pattern.quote(MARK) + "(\\d+)");

  /** A table's file, and the columns (by position) its copy does not hold. */
  record Bound(Path file, BitSet unfetched) {

    String key() {
      return file + (unfetched.isEmpty() ? "" : "#" + unfetched);
    }
  }

  /** A placeholder that fired: the table and the column (by position) the query needed. */
  record Missing(String table, int column) {
  }

  /** Thrown by a query that touched a column not fetched yet. */
  static final class Unfetched extends RuntimeException {
    final Missing missing;

    Unfetched(Missing missing) {
      super("Column " + missing.column() + " of " + missing.table() + " is not fetched yet", null, false, false);
      this.missing = missing;
    }
  }

  private Placeholders() {
  }

  /**
   * Creates each table's view; returns the placeholders made, whose positions their error messages carry. Needs
   * the files readable (before {@code enable_external_access} is locked): a view's column types come from the
   * footer.
   */
  static List<Missing> createViews(Statement s, Map<String, Bound> bindings) throws SQLException {
    List<Missing> made = new ArrayList<>();
    for (Map.Entry<String, Bound> table : bindings.entrySet()) {
      String file = DuckInstances.literal(table.getValue().file().toString());
      BitSet unfetched = table.getValue().unfetched();
      String select = "*";
      if (!unfetched.isEmpty()) {
        List<String> columns = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet("
            + file + "))")) {
          for (int i = 0; rs.next(); i++) {
            String name = DuckInstances.identifier(rs.getString(1));
            if (unfetched.get(i)) {
              columns.add("CAST(error('" + MARK + made.size() + "') AS " + rs.getString(2) + ") AS " + name);
              made.add(new Missing(table.getKey(), i));
            } else {
              columns.add(name);
            }
          }
        }
        select = String.join(", ", columns);
      }
      s.execute("CREATE VIEW " + DuckInstances.identifier(table.getKey()) + " AS SELECT " + select
          + " FROM read_parquet(" + file + ")");
    }
    return List.copyOf(made);
  }

  /** The placeholder a DuckDB error message says fired, if one did. */
  static Optional<Missing> fired(String message, List<Missing> placeholders) {
    Matcher m = FIRED.matcher(message == null ? "" : message);
    if (!m.find()) {
      return Optional.empty();
    }
    int index = Integer.parseInt(m.group(1));
    return index < placeholders.size() ? Optional.of(placeholders.get(index)) : Optional.empty();
  }
}
