package io.quarry.bus;

import java.util.Arrays;

/**
 * The kinds of file a dataset can be. Parquet is read where it lies, a column chunk at a time; the text formats are
 * fetched whole and read by DuckDB's own readers, with their sniffing (delimiter, quotes, header, types, dates).
 */
public enum DataFormat {
  PARQUET("parquet", "Parquet"),
  /** Comma-, tab- or otherwise delimited text (CSV, TSV): the delimiter is sniffed. */
  CSV("csv", "CSV"),
  /** A JSON array of objects, or one object per line (NDJSON). */
  JSON("json", "JSON");

  private final String wire;
  private final String label;

  DataFormat(String wire, String label) {
    this.wire = wire;
    this.label = label;
  }

  /** As it crosses the bus and is stored: {@code parquet}, {@code csv}, {@code json}. */
  public String wire() {
    return wire;
  }

  /** As a user reads it. */
  public String label() {
    return label;
  }

  /** Parquet when absent, as every dataset was before formats had names; else the named one. */
  public static DataFormat of(String wire) {
    if (wire == null || wire.isBlank()) {
      return PARQUET;
    }
    return Arrays.stream(values()).filter(f -> f.wire.equals(wire)).findFirst()
        .orElseThrow(() -> QuarryException.badRequest("Unknown format '" + wire + "': expected parquet, csv or json"));
  }
}
