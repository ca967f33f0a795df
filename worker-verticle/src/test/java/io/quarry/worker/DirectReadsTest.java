package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.bus.Export;
import io.quarry.bus.QueryResult;
import io.quarry.testing.ParquetFixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.VariantType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files DuckDB reads directly but cannot plan through a view of all their columns answer in Quarry as DuckDB answers
 * them directly, and files it plans either way keep one database for all their statements. The two files are made
 * here as other writers made them: a column chunk whose value count (0) disagrees with its row group's 8 rows (DuckDB's
 * own parquet_column_num_values_mismatch.parquet), and a shredded VARIANT whose shredded fields have no {@code value}
 * column (parquet-java's, in apache/parquet-testing's shredded_variant).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DirectReadsTest {

  private static final QueryEngine.Alarm NO_ALARM = (delayMs, action) -> () -> { };

  @TempDir
  Path dir;

  DuckInstances instances;
  QueryEngine engine;
  Connection bare;

  @BeforeEach
  void open() throws Exception {
    instances = new DuckInstances(new DuckInstances.Limits("256MB", 1, 1, 4, dir));
    instances.open();
    engine = new QueryEngine(instances, dir);
    bare = DriverManager.getConnection("jdbc:duckdb:");
  }

  @AfterEach
  void close() throws Exception {
    instances.close();
    bare.close();
  }

  /** Eight rows whose first column's chunk says it holds 0 values. */
  private Path miscounted() throws Exception {
    Path file = dir.resolve("miscounted.parquet");
    ParquetFixtures.create(file, "SELECT i::INT AS x, i::INT AS n, 'v' || i AS s FROM range(8) t(i)");
    return patchFooter(file, meta -> meta.getRow_groups().get(0).getColumns().get(0).getMeta_data().setNum_values(0));
  }

  /** A VARIANT shredded as an object whose fields have a {@code typed_value} and no {@code value} column. */
  private Path shreddedVariant() throws Exception {
    Path file = dir.resolve("shredded.parquet");
    ParquetFixtures.create(file, "SELECT i::INT AS id, {'metadata': '\\x01\\x00\\x00'::BLOB, 'value': NULL::BLOB,"
        + " 'typed_value': {'a': {'typed_value': i::INT}, 'b': {'typed_value': 'v' || i}}} AS var FROM range(3) t(i)");
    return patchFooter(file, meta -> {
      for (SchemaElement element : meta.getSchema()) {
        if (element.getName().equals("var")) {
          LogicalType variant = new LogicalType();
          variant.setVARIANT(new VariantType());
          element.setLogicalType(variant);
        }
      }
    });
  }

  /** Rewrites a file's footer (the data before it stays where it was). */
  private static Path patchFooter(Path file, Consumer<FileMetaData> patch) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    int length = (int) ParquetFixtures.footerLength(bytes) - 8;
    FileMetaData meta = Util.readFileMetaData(new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    patch.accept(meta);
    ByteArrayOutputStream footer = new ByteArrayOutputStream();
    Util.writeFileMetaData(meta, footer);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, 0, bytes.length - 8 - length);
    footer.writeTo(out);
    out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(footer.size()).array());
    out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
    return Files.write(file, out.toByteArray());
  }

  /** Bare DuckDB's first row of {@code sql} (as text) with {@code t} read directly from the file, or its failure. */
  private List<String> direct(Path file, String sql) throws SQLException {
    String read = "read_parquet('" + file.toString().replace("'", "''") + "')";
    try (Statement s = bare.createStatement(); ResultSet rs = s.executeQuery(sql.replace("FROM t", "FROM " + read))) {
      rs.next();
      List<String> row = new ArrayList<>();
      for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
        row.add(String.valueOf(rs.getObject(i)));
      }
      return row;
    }
  }

  private QueryResult quarry(Map<String, Placeholders.Bound> bindings, String sql) throws Exception {
    return engine.run(bindings, engine.check(sql, bindings.keySet()), sql, 10_000, NO_ALARM);
  }

  private static Map<String, Placeholders.Bound> whole(Path file) {
    return Map.of("t", new Placeholders.Bound(file, new BitSet(), "http://127.0.0.1/t.parquet"));
  }

  private static List<String> firstRow(QueryResult result) {
    return result.rowValues().getJsonArray(0).stream().map(String::valueOf).toList();
  }

  @Test
  @DisplayName("a column chunk that says 0 values of its row group's 8: count(*) and the other columns answer as"
      + " DuckDB reading the file directly (8 rows), where a view of all its columns says its metadata is corrupt")
  void miscountedColumn() throws Exception {
    Path file = miscounted();
    assertThatThrownBy(() -> direct(file, "SELECT count(*) FROM (SELECT * FROM t)"))
        .hasMessageContaining("Parquet metadata is corrupt");
    for (String sql : List.of("SELECT count(*) AS n FROM t", "SELECT count(n) AS c, sum(n) AS total FROM t",
        "SELECT max(s) AS top FROM t WHERE n > 2")) {
      assertThat(firstRow(quarry(whole(file), sql))).as(sql).isEqualTo(direct(file, sql));
    }
    assertThat(firstRow(quarry(whole(file), "SELECT count(*) AS n FROM t"))).containsExactly("8");
    // What DuckDB cannot read directly either stays refused, in its words.
    for (String sql : List.of("SELECT count(x) FROM t", "SELECT * FROM t")) {
      assertThatThrownBy(() -> direct(file, sql)).hasMessageContaining("metadata is corrupt");
      assertThatThrownBy(() -> quarry(whole(file), sql)).as(sql).hasMessageContaining("metadata is corrupt");
    }
  }

  @Test
  @DisplayName("another writer's shredded VARIANT (no value column under its shredded fields): count(*) and the id"
      + " column answer as DuckDB reading the file directly, where a view of all its columns fails inside DuckDB"
      + " (StructStats::GetChildStats)")
  void shreddedVariantWithoutValueColumns() throws Exception {
    Path file = shreddedVariant();
    assertThatThrownBy(() -> direct(file, "SELECT count(*) FROM (SELECT * FROM t)"))
        .hasMessageContaining("GetChildStats");
    for (String sql : List.of("SELECT count(*) AS n FROM t", "SELECT count(id) AS n, sum(id) AS total FROM t",
        "SELECT id FROM t ORDER BY id DESC LIMIT 1")) {
      assertThat(firstRow(quarry(whole(file), sql))).as(sql).isEqualTo(direct(file, sql));
    }
    assertThat(firstRow(quarry(whole(file), "SELECT count(*) AS n FROM t"))).containsExactly("3");
  }

  @Test
  @DisplayName("over a sparse copy (one column not fetched) the same: the columns read answer, the one not fetched"
      + " still asks to be fetched")
  void sparseCopy() throws Exception {
    Path file = miscounted();
    BitSet unfetched = new BitSet();
    unfetched.set(2);
    Map<String, Placeholders.Bound> bindings = Map.of("t", new Placeholders.Bound(file, unfetched, "http://127.0.0.1/t"));
    assertThat(firstRow(quarry(bindings, "SELECT sum(n) AS total FROM t"))).isEqualTo(direct(file,
        "SELECT sum(n) AS total FROM t"));
    assertThatThrownBy(() -> quarry(bindings, "SELECT max(s) FROM t")).isInstanceOf(Placeholders.Unfetched.class)
        .satisfies(e -> assertThat(((Placeholders.Unfetched) e).missing).isEqualTo(new Placeholders.Missing("t", 2)));
  }

  @Test
  @DisplayName("an export reads as DuckDB does directly too: the id column of the shredded VARIANT file, to CSV")
  void export() throws Exception {
    Path file = shreddedVariant();
    Path output = dir.resolve("ids.csv");
    String sql = "SELECT id FROM t ORDER BY id";
    QueryEngine.Exported written = engine.export(whole(file), engine.check(sql, Set.of("t")), sql,
        new Export("csv", 100, 1 << 20), output, 10_000, NO_ALARM);
    assertThat(written.rows()).isEqualTo(3);
    assertThat(Files.readAllLines(output)).containsExactly("id", "0", "1", "2");
  }

  @Test
  @DisplayName("a file DuckDB plans through a view keeps that one view for all its statements: none makes or remakes"
      + " a database, whichever columns it reads")
  void ordinaryFilesKeepOneDatabase() throws Exception {
    Path file = dir.resolve("ordinary.parquet");
    ParquetFixtures.create(file, "SELECT i AS a, i * 2 AS b, 'v' || i AS c FROM range(100) t(i)");
    quarry(whole(file), "SELECT count(*) FROM t");
    int made = instances.created();
    int remade = instances.remade();
    // Neither a name DuckDB cannot resolve nor a value it cannot convert as it runs is tried over other views.
    List<String> failing = List.of("SELECT nope FROM t", "SELECT CAST(c AS INTEGER) FROM t");
    for (String sql : List.of("SELECT sum(a) FROM t", "SELECT max(c) FROM t WHERE b > 10", "SELECT * FROM t",
        "SELECT count(*) FROM t", failing.get(0), failing.get(1))) {
      try {
        quarry(whole(file), sql);
        assertThat(failing).doesNotContain(sql);
      } catch (RuntimeException e) {
        assertThat(failing).as("%s: %s", sql, e.getMessage()).contains(sql);
      }
    }
    assertThat(instances.created()).as("databases made").isEqualTo(made);
    assertThat(instances.remade()).as("databases remade").isEqualTo(remade);
  }
}
