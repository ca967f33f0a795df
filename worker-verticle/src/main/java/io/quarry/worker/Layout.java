package io.quarry.worker;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;

/**
 * Where a Parquet file keeps each of its columns, read by DuckDB from the footer alone (so it can be read from a
 * copy that holds nothing else): per top-level column, the byte ranges of its column chunks in every row group
 * (the chunks of all its leaves, for a struct, list or map) and of their bloom filters, which DuckDB reads to
 * skip row groups. {@link #read} blocks: run it on a worker thread.
 *
 * @param columns  the top-level columns' names, in the file's order
 * @param ranges   per column, the bytes a query reading it needs
 * @param footerAt where the footer (metadata, its length and the closing magic number) starts
 */
record Layout(List<String> columns, List<List<ByteRange>> ranges, long footerAt) {

  /** The bytes of these columns. */
  List<ByteRange> rangesOf(BitSet wanted) {
    List<ByteRange> all = new ArrayList<>();
    wanted.stream().forEach(column -> all.addAll(ranges.get(column)));
    return all;
  }

  static Layout read(Path file, long footerAt) throws SQLException {
    String path = DuckInstances.literal(file.toString());
    try (Connection c = DuckInstances.newDatabase(); Statement s = c.createStatement()) {
      s.execute("SET threads = 1");
      s.execute("SET allowed_paths = [" + path + "]");
      s.execute("SET enable_external_access = false");
      List<String> columns = strings(s, "SELECT column_name FROM (DESCRIBE SELECT * FROM read_parquet(" + path + "))");
      int[] topOfLeaf = topLevelOfLeaves(s, path);
      return new Layout(columns, chunks(c, path, topOfLeaf, columns.size(), footerAt), footerAt);
    }
  }

  private static List<String> strings(Statement s, String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  /** Walks the schema tree (depth first, as parquet_schema lists it): leaf i belongs to top-level column result[i]. */
  private static int[] topLevelOfLeaves(Statement s, String path) throws SQLException {
    List<Integer> children = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT coalesce(num_children, 0) FROM parquet_schema(" + path + ")")) {
      while (rs.next()) {
        children.add(rs.getInt(1));
      }
    }
    List<Integer> leaves = new ArrayList<>();
    int next = 1;
    for (int top = 0; top < children.get(0); top++) {
      int pending = 1;
      while (pending > 0) {
        int kids = children.get(next++);
        pending += kids - 1;
        if (kids == 0) {
          leaves.add(top);
        }
      }
    }
    return leaves.stream().mapToInt(Integer::intValue).toArray();
  }

  private static List<List<ByteRange>> chunks(Connection c, String path, int[] topOfLeaf, int columns, long footerAt)
      throws SQLException {
    List<long[]> rows = new ArrayList<>();
    TreeSet<Long> starts = new TreeSet<>();
    starts.add(footerAt);
    try (PreparedStatement p = c.prepareStatement("SELECT column_id, dictionary_page_offset, data_page_offset,"
        + " total_compressed_size, bloom_filter_offset, bloom_filter_length FROM parquet_metadata(" + path + ")");
        ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        long dictionary = rs.getLong(2);
        boolean hasDictionary = !rs.wasNull() && dictionary > 0;
        long data = rs.getLong(3);
        long start = hasDictionary && dictionary < data ? dictionary : data;
        long bloom = rs.getLong(5);
        bloom = rs.wasNull() ? -1 : bloom;
        long bloomLength = rs.getLong(6);
        bloomLength = rs.wasNull() ? -1 : bloomLength;
        rows.add(new long[] {rs.getLong(1), start, rs.getLong(4), bloom, bloomLength});
        starts.add(start);
        if (bloom >= 0) {
          starts.add(bloom);
        }
      }
    }
    List<List<ByteRange>> ranges = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      ranges.add(new ArrayList<>());
    }
    for (long[] row : rows) {
      List<ByteRange> column = ranges.get(topOfLeaf[(int) row[0]]);
      column.add(new ByteRange(row[1], Math.min(footerAt, row[1] + row[2])));
      if (row[3] >= 0) {
        // A writer that leaves the filter's length out: up to whatever the file holds next, never less.
        long end = row[4] >= 0 ? row[3] + row[4] : starts.higher(row[3]);
        column.add(new ByteRange(row[3], Math.min(footerAt, end)));
      }
    }
    return ranges.stream().map(List::copyOf).toList();
  }
}
