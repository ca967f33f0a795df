package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker's warm-up at start runs the query and download paths and leaves nothing behind: no file, no database. */
class WarmupTest {

  @TempDir
  Path home;

  private DuckInstances instances;
  private Vertx vertx;

  @AfterEach
  void close() {
    if (instances != null) {
      instances.close();
    }
    if (vertx != null) {
      vertx.close().await();
    }
  }

  private long filesIn(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.count();
    }
  }

  @Test
  @DisplayName("the query warm-up makes a database over a file of its own and runs a query; then neither is left")
  void query() throws Exception {
    instances = new DuckInstances(new DuckInstances.Limits("256MB", 1, 1, 4, home));
    instances.open();
    int made = instances.created();
    Warmup.query(new QueryEngine(instances, home), instances, home);
    assertThat(instances.created()).as("databases made").isEqualTo(made + 1);
    assertThat(instances.kept()).as("databases kept").isZero();
    assertThat(home.resolve("warm-up.parquet")).doesNotExist();
  }

  @Test
  @DisplayName("the download warm-up fetches ranges over loopback from a server of its own; then its files are gone")
  void fetch() throws Exception {
    vertx = Vertx.vertx();
    assertThat(Warmup.fetch(vertx, home).await()).as("bytes received").isEqualTo(8L << 20);
    assertThat(filesIn(home)).isZero();
  }
}
