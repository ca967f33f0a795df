package io.quarry.dataset;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

/**
 * A Parquet file's schema from its footer alone: top-level columns with a DuckDB-style type and a
 * friendly type (Text, Integer, Decimal, Date, Timestamp, Boolean, List, Struct; and Map, Time, Binary, UUID for
 * what none of those is), and the row count.
 */
record ParquetSchema(long rowCount, JsonArray columns) {

  /** Decodes the Thrift {@code FileMetaData} of a footer; row groups are skipped. */
  static ParquetSchema decode(byte[] footer) throws IOException {
    FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(footer), true);
    List<SchemaElement> elements = meta.getSchema();
    if (elements == null || elements.isEmpty()) {
      throw new IOException("The footer has no schema");
    }
    int[] cursor = {0};
    Raw root = raw(elements, cursor);
    JsonArray columns = new JsonArray();
    for (Raw child : root.children()) {
      String type = type(child, false);
      columns.add(new JsonObject().put("name", child.e().getName()).put("type", type).put("friendly_type", friendlyOf(type)));
    }
    return new ParquetSchema(meta.getNum_rows(), columns);
  }

  /** The footer lists the schema tree depth-first; this rebuilds the tree. */
  private record Raw(SchemaElement e, List<Raw> children) {
    boolean repeated() {
      return e.isSetRepetition_type() && e.getRepetition_type() == FieldRepetitionType.REPEATED;
    }

    boolean annotated(boolean list) {
      LogicalType logical = e.isSetLogicalType() ? e.getLogicalType() : null;
      ConvertedType converted = e.isSetConverted_type() ? e.getConverted_type() : null;
      return list ? (logical != null && logical.isSetLIST()) || converted == ConvertedType.LIST
          : (logical != null && logical.isSetMAP()) || converted == ConvertedType.MAP
              || converted == ConvertedType.MAP_KEY_VALUE;
    }
  }

  private static Raw raw(List<SchemaElement> elements, int[] cursor) throws IOException {
    if (cursor[0] >= elements.size()) {
      throw new IOException("The footer's schema is truncated");
    }
    SchemaElement e = elements.get(cursor[0]++);
    List<Raw> children = new ArrayList<>();
    for (int i = 0; i < (e.isSetNum_children() ? e.getNum_children() : 0); i++) {
      children.add(raw(elements, cursor));
    }
    return new Raw(e, children);
  }

  /** DuckDB's type for a node; {@code ignoreRepetition} when a LIST annotation already made it a list. */
  private static String type(Raw node, boolean ignoreRepetition) throws IOException {
    String type;
    if (node.children().isEmpty()) {
      type = ParquetTypes.duckDbType(node.e());
    } else if (node.annotated(true)) {
      Raw repeated = node.children().get(0);
      boolean threeLevel = repeated.children().size() == 1 && !repeated.annotated(true);
      type = (threeLevel ? type(repeated.children().get(0), false) : type(repeated, true)) + "[]";
    } else if (node.annotated(false)) {
      Raw entry = node.children().get(0);
      if (entry.children().size() != 2) {
        throw new IOException("A MAP column without key and value");
      }
      type = "MAP(" + type(entry.children().get(0), false) + ", " + type(entry.children().get(1), false) + ")";
    } else {
      StringBuilder struct = new StringBuilder("STRUCT(");
      for (int i = 0; i < node.children().size(); i++) {
        Raw child = node.children().get(i);
        struct.append(i == 0 ? "" : ", ").append('"').append(child.e().getName()).append("\" ").append(type(child, false));
      }
      type = struct.append(')').toString();
    }
    return node.repeated() && !ignoreRepetition ? type + "[]" : type;
  }

  /**
   * The spec's friendly types, and honest names for what none of them is: a MAP is a Map, not a Struct; a TIME of day
   * is a Time, not a Timestamp; bytes are Binary and a UUID a UUID, not Text.
   */
  static String friendlyOf(String type) {
    if (type.endsWith("[]")) {
      return "List";
    }
    if (type.startsWith("STRUCT")) {
      return "Struct";
    }
    if (type.startsWith("MAP")) {
      return "Map";
    }
    if (type.startsWith("DECIMAL") || type.equals("FLOAT") || type.equals("DOUBLE")) {
      return "Decimal";
    }
    return switch (type) {
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "HUGEINT" ->
          "Integer";
      case "BOOLEAN" -> "Boolean";
      case "DATE" -> "Date";
      case "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIMESTAMP_MS", "TIMESTAMP_NS" -> "Timestamp";
      case "TIME", "TIME WITH TIME ZONE" -> "Time";
      case "BLOB" -> "Binary";
      case "UUID" -> "UUID";
      default -> "Text";
    };
  }
}
