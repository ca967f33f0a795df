package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Source;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The freshness window: a copy its origin confirmed current a moment ago is used without asking again, for
 * {@code worker.freshForMs} (60 s by default) or as long as the origin's {@code Cache-Control} says; a copy of another
 * version than its dataset records is never used unasked.
 */
@ExtendWith(VertxExtension.class)
class FreshnessTest {

  @TempDir
  Path dir;

  ParquetServer server;
  WorkerHarness harness;

  @BeforeEach
  void start(Vertx vertx) {
    server = ParquetServer.start(vertx);
    harness = new WorkerHarness(vertx, dir);
    harness.deploy(new JsonObject().put("freshForMs", 60_000), 5_000);
  }

  private ParquetServer.Route people(String path) {
    return server.route(path).content(ParquetFixtures.people(dir));
  }

  private QueryResult count(String path) {
    return count(path, List.of());
  }

  private QueryResult count(String path, List<Source> recorded) {
    return harness.client.run(new QueryRequest("SELECT count(*) FROM t", Map.of("t", server.url(path)), 5_000, "", "",
        "", null, recorded)).await();
  }

  @Test
  @DisplayName("within worker.freshForMs the copy its origin confirmed is used without asking it; every result says"
      + " when that was")
  void usedUnasked() {
    ParquetServer.Route people = people("/people.parquet");
    QueryResult first = count("/people.parquet");
    long asked = people.requests();
    QueryResult second = count("/people.parquet");
    QueryResult third = count("/people.parquet");
    assertThat(people.requests()).as("requests after the first query").isEqualTo(asked);
    assertThat(third.rowValues().getJsonArray(0).getLong(0)).isEqualTo(100);
    String confirmed = first.sourceList().get(0).confirmedAt();
    assertThat(confirmed).isNotNull();
    assertThat(second.sourceList().get(0).confirmedAt()).isEqualTo(confirmed);
    assertThat(third.sourceList().get(0).confirmedAt()).isEqualTo(confirmed);
  }

  @Test
  @DisplayName("the origin's Cache-Control wins: no-cache and max-age=0 are asked at every use; max-age and immutable"
      + " are not, even with no window of the worker's own")
  void originsWords() {
    for (String everyUse : List.of("no-cache", "max-age=0, must-revalidate", "private, no-store")) {
      String path = "/" + everyUse.replaceAll("\\W", "") + ".parquet";
      ParquetServer.Route route = people(path).cacheControl(everyUse);
      count(path);
      long asked = route.requests();
      count(path);
      assertThat(route.requests()).as(everyUse).isEqualTo(asked + 1);
    }
    harness.deploy(new JsonObject().put("freshForMs", 0), 5_000);
    for (String lasting : List.of("public, max-age=3600", "max-age=31536000, immutable", "s-maxage=600")) {
      String path = "/" + lasting.replaceAll("\\W", "") + ".parquet";
      ParquetServer.Route route = people(path).cacheControl(lasting);
      count(path);
      long asked = route.requests();
      count(path);
      assertThat(route.requests()).as(lasting).isEqualTo(asked);
    }
  }

  @Test
  @DisplayName("a file that changed on its origin is not seen within the window, unless its dataset records the new"
      + " version (a refresh or a version check found it): then the worker asks, and reads it")
  void recordedVersionWins() {
    ParquetServer.Route people = people("/people.parquet");
    count("/people.parquet");
    byte[] more = ParquetFixtures.write(dir.resolve("more.parquet"), "SELECT i AS id FROM range(250) t(i)");
    people.content(more);
    assertThat(count("/people.parquet").rowValues().getJsonArray(0).getLong(0)).as("within the window").isEqualTo(100);
    Source recorded = new Source("t", server.url("/people.parquet"), null, null, (long) more.length);
    QueryResult seen = count("/people.parquet", List.of(recorded));
    assertThat(seen.rowValues().getJsonArray(0).getLong(0)).isEqualTo(250);
    assertThat(seen.sourceList().get(0).size()).isEqualTo(more.length);
  }

  @Test
  @DisplayName("Cache-Control read as the worker's window: the origin's words, else worker.freshForMs")
  void windows() {
    assertThat(Freshness.windowMs(null, 60_000)).isEqualTo(60_000);
    assertThat(Freshness.windowMs("public", 60_000)).isEqualTo(60_000);
    assertThat(Freshness.windowMs("max-age=5", 60_000)).isEqualTo(5_000);
    assertThat(Freshness.windowMs("max-age=5, s-maxage=7", 60_000)).isEqualTo(7_000);
    assertThat(Freshness.windowMs("MAX-AGE=0, Must-Revalidate", 60_000)).isZero();
    assertThat(Freshness.windowMs("no-cache, max-age=600", 60_000)).isZero();
    assertThat(Freshness.windowMs("immutable, max-age=1", 60_000)).isEqualTo(Freshness.FOREVER);
    assertThat(Freshness.windowMs("max-age=nonsense", 60_000)).isZero();
    assertThat(Freshness.windowMs("max-age=99999999999999999", 60_000)).isPositive();
  }
}
