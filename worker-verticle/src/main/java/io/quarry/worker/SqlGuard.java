package io.quarry.worker;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
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

  private SqlGuard() {
  }

  static void check(Connection connection, String sql, Collection<String> tables) throws SQLException {
    JsonObject tree;
    try (PreparedStatement ps = connection.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
      ps.setString(1, sql);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        tree = new JsonObject(rs.getString(1));
      }
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
    Set<String> known = new HashSet<>();
    tables.forEach(t -> known.add(t.toLowerCase(Locale.ROOT)));
    collectCtes(statements, known);
    checkReferences(statements, known, tables);
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

  private static void checkReferences(Object node, Set<String> known, Collection<String> tables) {
    if (node instanceof JsonObject object) {
      String type = object.getString("type", "");
      if (type.equals("BASE_TABLE")) {
        checkTable(object, known, tables);
      } else if (type.equals("TABLE_FUNCTION")) {
        checkFunction(object, tables);
      }
      object.forEach(field -> checkReferences(field.getValue(), known, tables));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> checkReferences(item, known, tables));
    }
  }

  private static void checkTable(JsonObject ref, Set<String> known, Collection<String> tables) {
    String name = ref.getString("table_name", "");
    String qualifier = String.join(".", nonEmpty(ref.getString("catalog_name")), nonEmpty(ref.getString("schema_name")))
        .replaceAll("^\\.+|\\.+$", "");
    if (!qualifier.isEmpty() || !known.contains(name.toLowerCase(Locale.ROOT))) {
      throw FriendlyErrors.missingTable(qualifier.isEmpty() ? name : qualifier + "." + name, tables);
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
