package io.quarry.worker;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.Blob;
import java.sql.SQLException;
import java.sql.Struct;
import java.sql.Timestamp;
import java.util.Map;
import org.duckdb.DuckDBStruct;

/**
 * DuckDB values as faithful JSON: numbers stay numbers only while a JavaScript double holds them exactly
 * (larger integers and very precise decimals become strings), NaN and infinities become strings, dates
 * and times ISO-8601 text, lists arrays, structs objects, maps objects (or key/value pairs), nulls null.
 */
final class JsonValues {

  private static final long MAX_SAFE = (1L << 53) - 1;

  private JsonValues() {
  }

  static Object of(Object value) throws SQLException {
    if (value == null || value instanceof Boolean || value instanceof String) {
      return value;
    }
    if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
      return ((Number) value).intValue();
    }
    if (value instanceof Long l) {
      return Math.abs(l) <= MAX_SAFE ? l : l.toString();
    }
    if (value instanceof BigInteger big) {
      return big.abs().compareTo(BigInteger.valueOf(MAX_SAFE)) <= 0 ? big.longValue() : big.toString();
    }
    if (value instanceof Float || value instanceof Double) {
      double d = ((Number) value).doubleValue();
      return Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity")
          : value instanceof Float f ? Double.parseDouble(f.toString()) : d;
    }
    if (value instanceof BigDecimal dec) {
      double d = dec.doubleValue();
      return !Double.isInfinite(d) && new BigDecimal(Double.toString(d)).compareTo(dec) == 0 ? d : dec.toPlainString();
    }
    if (value instanceof Timestamp ts) {
      return ts.toLocalDateTime().toString();
    }
    if (value instanceof Array array) {
      return array((Object[]) array.getArray());
    }
    if (value instanceof DuckDBStruct struct) {
      return object(struct.getMap());
    }
    if (value instanceof Struct struct) {
      return array(struct.getAttributes());
    }
    if (value instanceof Map<?, ?> map) {
      return map(map);
    }
    if (value instanceof Blob blob) {
      return bytes(blob.getBytes(1, (int) blob.length()));
    }
    if (value instanceof byte[] raw) {
      return bytes(raw);
    }
    return value.toString();
  }

  private static JsonArray array(Object[] items) throws SQLException {
    JsonArray out = new JsonArray();
    for (Object item : items) {
      out.add(of(item));
    }
    return out;
  }

  private static JsonObject object(Map<String, Object> fields) throws SQLException {
    JsonObject out = new JsonObject();
    for (Map.Entry<String, Object> field : fields.entrySet()) {
      out.put(field.getKey(), of(field.getValue()));
    }
    return out;
  }

  /** String keys make an object; other keys (numbers, structs) a list of {key, value} pairs. */
  private static Object map(Map<?, ?> map) throws SQLException {
    boolean stringKeys = map.keySet().stream().allMatch(k -> k instanceof String);
    if (stringKeys) {
      JsonObject out = new JsonObject();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put((String) e.getKey(), of(e.getValue()));
      }
      return out;
    }
    JsonArray out = new JsonArray();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      out.add(new JsonObject().put("key", of(e.getKey())).put("value", of(e.getValue())));
    }
    return out;
  }

  /** As DuckDB prints a BLOB: printable ASCII as is, other bytes as {@code \xNN}. */
  private static String bytes(byte[] raw) {
    StringBuilder out = new StringBuilder();
    for (byte b : raw) {
      int v = b & 0xff;
      if (v >= 0x20 && v < 0x7f && v != '\\') {
        out.append((char) v);
      } else {
        out.append(String.format("\\x%02X", v));
      }
    }
    return out.toString();
  }
}
