package io.quarry.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Deliveries;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.WorkerReply;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** One database per conversation, whichever of its tables each query reads. */
@ExtendWith(VertxExtension.class)
class ConversationDatabaseTest {

  @TempDir
  Path dir;

  @Test
  @DisplayName("kept to a single database, a conversation whose queries take turns reading its two tables makes "
      + "none anew once both files are cached: they are bound together")
  void oneDatabasePerConversation(Vertx vertx) {
    ParquetServer server = ParquetServer.start(vertx);
    server.route("/people.parquet").content(ParquetFixtures.people(dir));
    server.route("/cities.parquet").content(ParquetFixtures.write(dir.resolve("cities.parquet"),
        "SELECT 'Paris' AS city, 2100000 AS population"));
    Map<String, String> tables = Map.of("people", server.url("/people.parquet"), "cities",
        server.url("/cities.parquet"));
    WorkerVerticle worker = new WorkerVerticle();
    vertx.deployVerticle(worker, new DeploymentOptions().setConfig(new JsonObject()
        .put("dataDir", dir.resolve("data").toString()).put("allowPrivateNetworks", true).put("instances", 1)
        .put("freshForMs", 0)
        .put("localWorkerId", "shared"))).await();
    query(vertx, "SELECT count(*) FROM people", tables);
    query(vertx, "SELECT count(*) FROM cities", tables);
    int made = worker.databasesMade();

    for (int i = 0; i < 3; i++) {
      assertThat(query(vertx, "SELECT max(age) FROM people", tables).getInteger(0)).isNotNull();
      assertThat(query(vertx, "SELECT city FROM cities", tables).getString(0)).isEqualTo("Paris");
    }

    assertThat(worker.databasesMade()).as("each query made its own while the tables were bound apart")
        .isEqualTo(made);
  }

  private static JsonArray query(Vertx vertx, String sql, Map<String, String> tables) {
    Buffer reply = vertx.eventBus().<Buffer>request(Addresses.localWorker("shared"),
        new QueryRequest(sql, tables, 5_000).toJson(), Deliveries.within(10_000)).await().body();
    return WorkerReply.decode(reply).rowValues().getJsonArray(0);
  }
}
