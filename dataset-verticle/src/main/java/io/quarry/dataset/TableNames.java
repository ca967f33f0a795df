package io.quarry.dataset;

import io.quarry.bus.QuarryException;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/** A dataset's table name must be usable unquoted in SQL: an identifier that is not a reserved word. */
final class TableNames {

  static final int MAX_LENGTH = 63;
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** DuckDB's reserved keywords (those that cannot name a table unquoted). */
  private static final Set<String> RESERVED = Set.of("all", "analyse", "analyze", "and", "any", "array", "as", "asc",
      "asymmetric", "both", "case", "cast", "check", "collate", "column", "constraint", "create", "default",
      "deferrable", "desc", "describe", "distinct", "do", "else", "end", "except", "false", "fetch", "for", "foreign",
      "from", "grant", "group", "having", "in", "initially", "intersect", "into", "lateral", "leading", "limit",
      "not", "null", "offset", "on", "only", "or", "order", "pivot", "pivot_longer", "pivot_wider", "placing",
      "primary", "qualify", "references", "returning", "select", "show", "some", "summarize", "symmetric", "table",
      "then", "to", "trailing", "true", "union", "unique", "unpivot", "using", "variadic", "when", "where", "window",
      "with", "join", "inner", "outer", "left", "right", "full", "cross", "natural", "semi", "anti", "asof",
      "positional", "tablesample", "similar", "glob", "ilike", "like", "is", "isnull", "notnull", "between",
      "overlaps", "binary", "freeze", "concurrently", "verbose", "authorization", "current_catalog",
      "current_date", "current_role", "current_schema", "current_time", "current_timestamp", "current_user",
      "localtime", "localtimestamp", "session_user", "user", "struct", "map", "lambda");

  private TableNames() {
  }

  static String check(String name) {
    if (name == null || name.isBlank()) {
      throw QuarryException.badRequest("Field 'name' is required");
    }
    if (name.length() > MAX_LENGTH || !IDENTIFIER.matcher(name).matches()) {
      throw QuarryException.badRequest("Name must be a valid SQL identifier: letters, digits and underscores, "
          + "not starting with a digit, at most " + MAX_LENGTH + " characters");
    }
    if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
      throw QuarryException.badRequest("'" + name + "' is a reserved SQL word; choose another name");
    }
    return name;
  }
}
