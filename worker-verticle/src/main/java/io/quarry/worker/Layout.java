package io.quarry.worker;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

/**
 * Where a Parquet file keeps each of its columns, read from the footer alone (so it can be read from a copy that holds
 * nothing else): per top-level column, the byte ranges of its column chunks in every row group
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

  /**
   * The columns' names as DuckDB reads them (it also checks that DuckDB can open the file at all), and where their
   * chunks are from the footer's own metadata: DuckDB's parquet_metadata() would decode every statistic too, and
   * fails on some that other writers wrote. {@code database}: a connection to a database without tables that may read
   * the file (see {@link DuckInstances#layout}).
   */
  static Layout read(Connection database, Path file, long footerAt) throws SQLException, IOException {
    List<String> columns = columns(database, file).stream().map(Column::name).toList();
    FileMetaData meta = footer(file, footerAt);
    return new Layout(columns, chunks(meta, topLevelOfLeaves(meta.getSchema()), columns.size(), footerAt), footerAt);
  }

  /** Where a whole Parquet file's footer begins: its length is the four bytes before the closing magic number. */
  static long footerAt(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer length = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      channel.read(length, channel.size() - 8);
      return channel.size() - 8 - length.getInt(0);
    }
  }

  /** A top-level column: its name and DuckDB type. */
  record Column(String name, String type) {
  }

  /** The file's top-level columns as DuckDB opens it, and as a view of all of them shows them (blocks). */
  static List<Column> columns(Connection database, Path file) throws SQLException {
    List<Column> columns = new ArrayList<>();
    try (Statement s = database.createStatement(); ResultSet rs = s.executeQuery("SELECT column_name, column_type"
        + " FROM (DESCRIBE SELECT * FROM read_parquet(" + DuckInstances.literal(file.toString()) + "))")) {
      while (rs.next()) {
        columns.add(new Column(rs.getString(1), rs.getString(2)));
      }
    }
    return columns;
  }

  /** The footer's metadata, row groups included: the bytes from {@code footerAt} to the length and magic number. */
  private static FileMetaData footer(Path file, long footerAt) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long length = channel.size() - 8 - footerAt;
      if (length <= 0 || length > Integer.MAX_VALUE) {
        throw new IOException("The footer's length does not fit the file");
      }
      ByteBuffer bytes = ByteBuffer.allocate((int) length);
      while (bytes.hasRemaining() && channel.read(bytes, footerAt + bytes.position()) >= 0) {
        // Reads until the footer is whole.
      }
      return Util.readFileMetaData(new ByteArrayInputStream(bytes.array()));
    }
  }

  /** Walks the schema tree (depth first, as the footer lists it): leaf i belongs to top-level column result[i]. */
  private static int[] topLevelOfLeaves(List<SchemaElement> schema) {
    List<Integer> leaves = new ArrayList<>();
    int next = 1;
    for (int top = 0; top < schema.get(0).getNum_children(); top++) {
      int pending = 1;
      while (pending > 0) {
        int kids = schema.get(next++).getNum_children();
        pending += kids - 1;
        if (kids == 0) {
          leaves.add(top);
        }
      }
    }
    return leaves.stream().mapToInt(Integer::intValue).toArray();
  }

  private static List<List<ByteRange>> chunks(FileMetaData meta, int[] topOfLeaf, int columns, long footerAt) {
    List<ColumnMetaData> chunks = new ArrayList<>();
    List<Integer> leafOf = new ArrayList<>();
    TreeSet<Long> starts = new TreeSet<>();
    starts.add(footerAt);
    for (RowGroup group : meta.getRow_groups()) {
      for (int leaf = 0; leaf < group.getColumnsSize(); leaf++) {
        ColumnMetaData chunk = group.getColumns().get(leaf).getMeta_data();
        chunks.add(chunk);
        leafOf.add(leaf);
        starts.add(start(chunk));
        if (chunk.isSetBloom_filter_offset()) {
          starts.add(chunk.getBloom_filter_offset());
        }
      }
    }
    List<List<ByteRange>> ranges = new ArrayList<>();
    for (int i = 0; i < columns; i++) {
      ranges.add(new ArrayList<>());
    }
    for (int i = 0; i < chunks.size(); i++) {
      ColumnMetaData chunk = chunks.get(i);
      List<ByteRange> column = ranges.get(topOfLeaf[leafOf.get(i)]);
      long start = start(chunk);
      column.add(new ByteRange(start, Math.min(footerAt, start + chunk.getTotal_compressed_size())));
      if (chunk.isSetBloom_filter_offset()) {
        long bloom = chunk.getBloom_filter_offset();
        // A writer that leaves the filter's length out: up to whatever the file holds next, never less.
        long end = chunk.isSetBloom_filter_length() ? bloom + chunk.getBloom_filter_length() : starts.higher(bloom);
        column.add(new ByteRange(bloom, Math.min(footerAt, end)));
      }
    }
    return ranges.stream().map(List::copyOf).toList();
  }

  /** Where a chunk starts: its dictionary page, when it has one before its data. */
  private static long start(ColumnMetaData chunk) {
    long data = chunk.getData_page_offset();
    long dictionary = chunk.isSetDictionary_page_offset() ? chunk.getDictionary_page_offset() : 0;
    return dictionary > 0 && dictionary < data ? dictionary : data;
  }
}
