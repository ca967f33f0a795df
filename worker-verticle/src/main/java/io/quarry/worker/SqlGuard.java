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
   * Checks the statement and returns what it reads: the conversation's tables (as {@code tables} spells them)
   * and their columns, so that only those files, and of them only those columns, are fetched and bound.
   */
  static Reads check(PreparedStatement serializer, String sql, Collection<String> tables) throws SQLException {
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
    References refs = new References(byLowerName, ctes);
    checkReferences(statements, refs);
    return new Reads(refs.read, refs.names, refs.readsWholeRows());
  }

  /** What a reference may name, and what the statement was found to read so far. */
  private static final class References {
    /** The conversation's table names by their lower-case form. */
    final Map<String, String> tables;
    final Set<String> ctes;
    final Set<String> read = new TreeSet<>();
    /** Every part of every column reference, lower-case. */
    final Set<String> names = new HashSet<>();
    /** One-part column references: a relation's name there is its whole row ({@code SELECT t FROM t}). */
    final Set<String> singles = new HashSet<>();
    /** Names rows can be referred to by: tables, aliases, CTEs. */
    final Set<String> relations = new HashSet<>();
    boolean allColumns;

    References(Map<String, String> tables, Set<String> ctes) {
      this.tables = tables;
      this.ctes = ctes;
      relations.addAll(ctes);
    }

    Collection<String> tableNames() {
      return tables.values();
    }

    boolean readsWholeRows() {
      return allColumns || singles.stream().anyMatch(relations::contains);
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
      if (type.equals("SELECT_NODE") && isDescribe(object.getJsonObject("from_table"))) {
        checkDescribe(object, refs);
        return;
      }
      if (type.equals("BASE_TABLE")) {
        checkTable(object, refs);
      } else if (type.equals("TABLE_FUNCTION")) {
        checkFunction(object, refs.tableNames());
      }
      noteColumns(object, type, refs);
      object.forEach(field -> checkReferences(field.getValue(), refs));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> checkReferences(item, refs));
    }
  }

  /** DESCRIBE, or a subquery that selects from it (as {@code SELECT * FROM (DESCRIBE t)} is parsed). */
  private static boolean isDescribe(JsonObject from) {
    if (from == null) {
      return false;
    }
    if ("SHOW_REF".equals(from.getString("type"))) {
      return true;
    }
    JsonObject subquery = from.getJsonObject("subquery");
    JsonObject node = subquery == null ? null : subquery.getJsonObject("node");
    return "SUBQUERY".equals(from.getString("type")) && node != null && "SELECT_NODE".equals(node.getString("type"))
        && isDescribe(node.getJsonObject("from_table"));
  }

  /**
   * {@code SELECT … FROM (DESCRIBE t)}: DESCRIBE reads a relation's column names and types from its footer, no value
   * of any column, so its tables are read (bound) but none of their columns; a star over it is over DESCRIBE's rows.
   */
  private static void checkDescribe(JsonObject select, References refs) {
    checkTablesOnly(select.getJsonObject("from_table"), refs);
    select.forEach(field -> {
      if (field.getKey().equals("select_list")) {
        ((JsonArray) field.getValue()).stream().filter(item -> !"STAR".equals(((JsonObject) item).getString("type")))
            .forEach(item -> checkReferences(item, refs));
      } else if (!field.getKey().equals("from_table")) {
        checkReferences(field.getValue(), refs);
      }
    });
  }

  private static void checkTablesOnly(Object node, References refs) {
    if (node instanceof JsonObject object) {
      String type = object.getString("type", "");
      if (type.equals("BASE_TABLE")) {
        checkTable(object, refs);
      } else if (type.equals("TABLE_FUNCTION")) {
        checkFunction(object, refs.tableNames());
      }
      object.forEach(field -> checkTablesOnly(field.getValue(), refs));
    } else if (node instanceof JsonArray array) {
      array.forEach(item -> checkTablesOnly(item, refs));
    }
  }

  /** Stars and {@code NATURAL} joins read columns no reference names. */
  private static void noteColumns(JsonObject node, String type, References refs) {
    String alias = node.getString("alias", "");
    if (!alias.isEmpty() && node.containsKey("sample")) {
      refs.relations.add(alias.toLowerCase(Locale.ROOT));
    }
    if (type.equals("COLUMN_REF")) {
      JsonArray parts = node.getJsonArray("column_names", new JsonArray());
      parts.forEach(part -> refs.names.add(String.valueOf(part).toLowerCase(Locale.ROOT)));
      if (parts.size() == 1) {
        refs.singles.add(String.valueOf(parts.getValue(0)).toLowerCase(Locale.ROOT));
      }
    } else if (type.equals("STAR") || "NATURAL".equals(node.getString("ref_type"))) {
      refs.allColumns = true;
    }
    node.getJsonArray("using_columns", new JsonArray())
        .forEach(name -> refs.names.add(String.valueOf(name).toLowerCase(Locale.ROOT)));
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
    refs.relations.add(lower);
    if (qualifier.isEmpty() && refs.tables.containsKey(lower)) {
      refs.read.add(refs.tables.get(lower));
    } else if (!qualifier.isEmpty() || !refs.ctes.contains(lower)) {
      throw FriendlyErrors.missingTable(qualifier.isEmpty() ? name : qualifier + "." + name, refs.tableNames());
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
