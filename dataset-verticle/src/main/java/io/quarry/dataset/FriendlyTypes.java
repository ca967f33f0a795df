package io.quarry.dataset;

import java.util.Locale;

/**
 * The friendly type of a column, from the type DuckDB reads it as: the spec's Text, Integer, Decimal, Date, Timestamp,
 * Boolean, List and Struct, and honest names for what none of those is (a Map, a Time of day, Binary bytes, a UUID,
 * an Interval, a Variant, a Geometry).
 */
final class FriendlyTypes {

  private FriendlyTypes() {
  }

  static String of(String duckDbType) {
    String type = duckDbType.strip().toUpperCase(Locale.ROOT);
    if (type.endsWith("]")) {
      return "List";
    }
    String base = type.replaceFirst("[ (].*$", "");
    return switch (base) {
      case "STRUCT", "UNION" -> "Struct";
      case "MAP" -> "Map";
      case "DECIMAL", "NUMERIC", "FLOAT", "REAL", "DOUBLE" -> "Decimal";
      case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
          "UHUGEINT", "BIGNUM", "VARINT" -> "Integer";
      case "BOOLEAN" -> "Boolean";
      case "DATE" -> "Date";
      case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "TIMESTAMPTZ" -> "Timestamp";
      case "TIME", "TIME_NS", "TIMETZ" -> "Time";
      case "INTERVAL" -> "Interval";
      case "BLOB", "BIT" -> "Binary";
      case "UUID" -> "UUID";
      case "VARIANT" -> "Variant";
      case "GEOMETRY" -> "Geometry";
      default -> "Text";
    };
  }
}
