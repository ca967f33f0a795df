package io.quarry.worker;

import io.quarry.bus.QuarryException;
import io.quarry.bus.WorkerClient;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * DuckDB's error text turned into a message a person (or the LLM) can act on: it names the missing
 * column or table and lists what is available. DuckDB's own text stays in the details.
 */
final class FriendlyErrors {

  private static final int MAX_LISTED_COLUMNS = 60;
  private static final Pattern MISSING_COLUMN = Pattern.compile("Referenced column \"([^\"]+)\" not found");
  private static final Pattern MISSING_TABLE = Pattern.compile("Table with name ([^ !]+) does not exist");
  private static final Pattern SYNTAX_AT = Pattern.compile("syntax error at or near \"([^\"]*)\"");

  private FriendlyErrors() {
  }

  static QuarryException sql(String duckdb, Collection<String> tables, Map<String, List<String>> columns) {
    String first = duckdb.lines().findFirst().orElse(duckdb).strip();
    Matcher m;
    if ((m = MISSING_COLUMN.matcher(duckdb)).find()) {
      return QueryFailure.sql("Column '" + m.group(1) + "' does not exist. Available columns: " + columns(columns),
          duckdb);
    }
    if ((m = MISSING_TABLE.matcher(duckdb)).find()) {
      return QueryFailure.sql(missingTableMessage(m.group(1), tables), duckdb);
    }
    if ((m = SYNTAX_AT.matcher(duckdb)).find()) {
      return QueryFailure.sql("SQL syntax error at or near '" + m.group(1) + "'", duckdb);
    }
    if (duckdb.contains("syntax error at end of input")) {
      return QueryFailure.sql("SQL syntax error: the query ends unexpectedly", duckdb);
    }
    if (first.startsWith("Conversion Error") || duckdb.contains("No function matches")
        || duckdb.contains("Cannot compare values") || duckdb.contains("Cannot mix values")) {
      return QueryFailure.sql("Type mismatch: " + withoutPrefix(first), duckdb);
    }
    if (first.startsWith("Out of Memory Error")) {
      return QueryFailure.sql(WorkerClient.OUT_OF_MEMORY, duckdb);
    }
    if (first.startsWith("Permission Error")) {
      return new QuarryException(io.quarry.bus.Failure.BAD_REQUEST, "Reading files or the system directly is not "
          + "allowed: queries read only this conversation's tables (" + list(new TreeSet<>(tables)) + ")", duckdb);
    }
    return QueryFailure.sql(first, duckdb);
  }

  /** The table DuckDB's text says does not exist, if it says so. */
  static java.util.Optional<String> missingTable(String duckdb) {
    Matcher m = MISSING_TABLE.matcher(duckdb);
    return m.find() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
  }

  static QuarryException missingTable(String name, Collection<String> tables) {
    return QueryFailure.sql(missingTableMessage(name, tables), null);
  }

  private static String missingTableMessage(String name, Collection<String> tables) {
    return "Table '" + name + "' does not exist. Available tables: " + list(new TreeSet<>(tables));
  }

  static String list(Collection<String> names) {
    return names.isEmpty() ? "none (add a dataset first)" : String.join(", ", names);
  }

  private static String columns(Map<String, List<String>> columns) {
    if (columns == null || columns.isEmpty()) {
      return "none";
    }
    int[] budget = {MAX_LISTED_COLUMNS};
    return columns.entrySet().stream().map(e -> {
      List<String> shown = e.getValue().stream().limit(Math.max(0, budget[0])).toList();
      budget[0] -= shown.size();
      String more = shown.size() < e.getValue().size() ? ", …" : "";
      return e.getKey() + "(" + String.join(", ", shown) + more + ")";
    }).collect(Collectors.joining(", "));
  }

  private static String withoutPrefix(String line) {
    int colon = line.indexOf(": ");
    return colon > 0 && line.substring(0, colon).endsWith("Error") ? line.substring(colon + 2) : line;
  }
}
