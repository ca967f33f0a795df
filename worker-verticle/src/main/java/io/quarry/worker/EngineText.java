package io.quarry.worker;

import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DuckDB's error text as a browser, the model or a bus client may see it: no stack trace (DuckDB appends its native
 * one, with library paths, to an internal error), no local path (a table's cached copy is named by the table and its
 * URL; anything else under the worker's folder is "a cached file"). The whole text goes to the log, at debug level.
 */
final class EngineText {

  private static final Pattern STACK = Pattern.compile("\\n\\s*Stack Trace:");
  /** Where DuckDB quotes the statement: for a statement of Quarry's own (a table's view), it says nothing useful. */
  private static final Pattern QUOTED_STATEMENT = Pattern.compile("\\n\\s*LINE \\d+:");
  private static final Pattern CONTROL = Pattern.compile("[\\p{Cntrl}&&[^\\n\\t]]");
  private static final Pattern INTERNAL = Pattern.compile("^\\s*INTERNAL Error:", Pattern.MULTILINE);

  private EngineText() {
  }

  /** Whether DuckDB failed within itself (an assertion, an engine bug), rather than on the statement it was given. */
  static boolean internal(String duckdb) {
    return INTERNAL.matcher(duckdb).find();
  }

  /**
   * {@code duckdb} without its stack trace, each bound file named as its table and URL, and any other path under
   * {@code home} (the worker's folder) hidden.
   */
  static String clean(String duckdb, Map<String, Placeholders.Bound> bindings, Path home) {
    String text = duckdb;
    Matcher stack = STACK.matcher(text);
    if (stack.find()) {
      text = text.substring(0, stack.start());
    }
    for (Map.Entry<String, Placeholders.Bound> table : bindings.entrySet()) {
      text = text.replace(table.getValue().file().toString(), named(table.getKey(), table.getValue().url()));
    }
    String root = home.toAbsolutePath().toString();
    text = text.replaceAll(Pattern.quote(root) + "[^\\s'\"]*", "a cached file");
    return CONTROL.matcher(text).replaceAll("?").strip();
  }

  /** Why DuckDB could not run a statement of Quarry's own: {@link #clean}, without the statement it quotes. */
  static String reason(String duckdb, Map<String, Placeholders.Bound> bindings, Path home) {
    Matcher quoted = QUOTED_STATEMENT.matcher(duckdb);
    return clean(quoted.find() ? duckdb.substring(0, quoted.start()) : duckdb, bindings, home);
  }

  /** How a table is named in a message about its file. */
  static String named(String table, String url) {
    return "table " + table + (url == null ? "" : " (" + url + ")");
  }
}
