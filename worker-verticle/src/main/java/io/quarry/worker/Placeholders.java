package io.quarry.worker;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
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

  /**
   * A table's file, the columns (by position) its copy does not hold, and the URL it is a copy of; {@code only}, when
   * not null, the names (lower-case) of the columns a statement reads: the view reads no other column of the file (see
   * {@link DirectReads}).
   */
  record Bound(Path file, BitSet unfetched, String url, Set<String> only) {

    Bound(Path file, BitSet unfetched, String url) {
      this(file, unfetched, url, null);
    }

    /** The same table, its view reading only the columns so named. */
    Bound reading(Set<String> names) {
      return new Bound(file, unfetched, url, Set.copyOf(names));
    }

    String key() {
      return file + (unfetched.isEmpty() ? "" : "#" + unfetched) + (only == null ? "" : "@" + new TreeSet<>(only));
    }

    /** Whether the view shows this column (by position, named so) as a placeholder rather than reading it. */
    boolean placeholder(int column, String name) {
      return unfetched.get(column) || only != null && !only.contains(name.toLowerCase(Locale.ROOT));
    }
  }

  /**
   * A placeholder that fired: the table and the column (by position) the query needed: one its copy does not hold, or
   * one a view bound to a statement's columns left out.
   */
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
   * The views made: the placeholders, whose positions their error messages carry, and the tables whose file DuckDB
   * could not open, with its reason. A table that cannot be opened gets no view, so that it fails only the
   * statements that read it: the conversation's other tables are bound in the same database.
   */
  record Views(List<Missing> placeholders, Map<String, String> unreadable) {
  }

  /**
   * Creates each table's view. Through a view DuckDB decodes the statistics of every column the view projects, and a
   * few files it reads directly it cannot read this way (Drill's decimal statistics, duckdb/duckdb#15467); their
   * queries are run again over views of only the columns they read ({@link DirectReads}), as DuckDB reads the file
   * directly. Needs the files readable (before {@code enable_external_access} is locked): a view's column types come
   * from the footer.
   */
  static Views createViews(Connection database, Map<String, Bound> bindings) {
    List<Missing> made = new ArrayList<>();
    Map<String, String> unreadable = new LinkedHashMap<>();
    for (Map.Entry<String, Bound> table : bindings.entrySet()) {
      // A statement of its own each: DuckDB closes a statement that failed.
      try (Statement s = database.createStatement()) {
        createView(s, table.getKey(), table.getValue(), made);
      } catch (SQLException e) {
        unreadable.put(table.getKey(), e.getMessage() == null ? e.toString() : e.getMessage());
      }
    }
    return new Views(List.copyOf(made), Map.copyOf(unreadable));
  }

  private static void createView(Statement s, String table, Bound bound, List<Missing> made) throws SQLException {
    String file = DuckInstances.literal(bound.file().toString());
    String select = "*";
    if (!bound.unfetched().isEmpty() || bound.only() != null) {
      List<String> columns = new ArrayList<>();
      List<Missing> mine = new ArrayList<>();
      List<Layout.Column> described = Layout.columns(s.getConnection(), bound.file());
      for (int i = 0; i < described.size(); i++) {
        Layout.Column column = described.get(i);
        String name = DuckInstances.identifier(column.name());
        if (bound.placeholder(i, column.name())) {
          columns.add("CAST(error('" + MARK + (made.size() + mine.size()) + "') AS " + column.type() + ") AS " + name);
          mine.add(new Missing(table, i));
        } else {
          columns.add(name);
        }
      }
      select = String.join(", ", columns);
      made.addAll(mine);
    }
    s.execute("CREATE VIEW " + DuckInstances.identifier(table) + " AS SELECT " + select + " FROM read_parquet("
        + file + ")");
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
