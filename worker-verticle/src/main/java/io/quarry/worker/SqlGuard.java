package io.quarry.worker;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Before a statement runs, DuckDB's own parser ({@code json_serialize_sql}) checks that it is exactly one
 * read query whose tables are the conversation's tables (or its own CTEs) and that it calls no table
 * function that reads files or the system. DuckDB's locked sandbox stands behind this; the guard's part
 * is a clear message instead of a permission error.
 */
final class SqlGuard {

  /** Table functions that only generate values. */
  private static final Set<String> SAFE_TABLE_FUNCTIONS = Set.of("range", "generate_series", "unnest");

  /** What {@code serializer} must be prepared from, with the statement as its one parameter. */
  static final String SERIALIZE = "SELECT json_serialize_sql(?::VARCHAR)";

  private SqlGuard() {
  }

  /**
   * Checks the statement and returns the conversation's tables it reads (as {@code tables} spells them),
   * so that only those files are fetched and bound.
   */
  static Set<String> check(PreparedStatement serializer, String sql, Collection<String> tables) throws SQLException {
    JsonObject tree;
    serializer.setString(1, sql);
    try (ResultSet rs = serializer.executeQuery()) {
      rs.next();
      tree = new JsonObject(rs.getString(1));
    }
    if (tree.getBoolean("error", false)) {
      String message = tree.getString("error_message", "");
      if (message.contains("Only SELECT statements")) {
        throw QueryFailure.validation("Only read queries are allowed: Quarry runs SELECT statements (and WITH … SELECT)"
            + " and refuses COPY, ATTACH, INSTALL, LOAD, SET, PRAGMA, CREATE and other statements");
      }
      throw FriendlyErrors.sql(tree.getString("error_type", "") + " Error: " + message, tables, null);
    }
    JsonArray statements = tree.getJsonArray("statements", new JsonArray());
    if (statements.size() != 1) {
      throw QueryFailure.validation(statements.isEmpty() ? "The query is empty" : "Run one statement at a time");
    }
    Set<String> ctes = new HashSet<>();
    collectCtes(statements, ctes);
    Map<String, String> byLowerName = new HashMap<>();
    tables.forEach(t -> byLowerName.put(t.toLowerCase(Locale.ROOT), t));
    Set<String> read = new TreeSet<>();
    checkReferences(statements, new References(byLowerName, ctes, read));
    return read;
  }

  /**
   * What a reference may name, and the tables found read so far.
   *
   * @param tables the conversation's table names by their lower-case form
   */
  private record References(Map<String, String> tables, Set<String> ctes, Set<String> read) {

    Collection<String> names() {
      return tables.values();
    }
  }

  private static void collectCtes(Object node, Set<String> known) {
    if (node instanceof JsonObject object) {
      JsonObject cteMap = object.getJsonObject("cte_map");
      if (cteMap != null) {
        for (Object entry : cteMap.getJsonArray("map", new JsonArray())) {
          known.add(((JsonObject) entry).getString("key", "").toLowerCase(Locale.ROOT));
        }
      }
      object.forEach(field -> collectCtes(field.getValue(), known));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> collectCtes(item, known));
    }
  }

  private static void checkReferences(Object node, References refs) {
    if (node instanceof JsonObject object) {
      String type = object.getString("type", "");
      if (type.equals("BASE_TABLE")) {
        checkTable(object, refs);
      } else if (type.equals("TABLE_FUNCTION")) {
        checkFunction(object, refs.names());
      }
      object.forEach(field -> checkReferences(field.getValue(), refs));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> checkReferences(item, refs));
    }
  }

  /**
   * A reference must be one of the conversation's tables or a CTE. A name that is both is counted as
   * read: binding a table the query turns out not to read costs a fetch, missing one would fail it.
   */
  private static void checkTable(JsonObject ref, References refs) {
    String name = ref.getString("table_name", "");
    String lower = name.toLowerCase(Locale.ROOT);
    String qualifier = String.join(".", nonEmpty(ref.getString("catalog_name")), nonEmpty(ref.getString("schema_name")))
        .replaceAll("^\\.+|\\.+$", "");
    if (qualifier.isEmpty() && refs.tables().containsKey(lower)) {
      refs.read().add(refs.tables().get(lower));
    } else if (!qualifier.isEmpty() || !refs.ctes().contains(lower)) {
      throw FriendlyErrors.missingTable(qualifier.isEmpty() ? name : qualifier + "." + name, refs.names());
    }
  }

  private static void checkFunction(JsonObject ref, Collection<String> tables) {
    JsonObject function = ref.getJsonObject("function", new JsonObject());
    String name = function.getString("function_name", "").toLowerCase(Locale.ROOT);
    if (!SAFE_TABLE_FUNCTIONS.contains(name)) {
      throw QueryFailure.validation("The table function " + name + "() is not allowed: queries read only this "
          + "conversation's tables (" + FriendlyErrors.list(new TreeSet<>(tables)) + ")");
    }
  }

  private static String nonEmpty(String text) {
    return text == null ? "" : text;
  }
}
