package io.quarry.bench;

import static io.quarry.bench.LocalNode.send;

import io.quarry.app.Node;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the freshness window saves a query over a file whose origin is far away, on loopback only: the same trivial
 * query repeated 15 times (HTTP, as the SQL runner sends it) over a file served at once (the near baseline) and
 * with every answer 100 ms late (one round trip), by a node that asks the origin at every use
 * ({@code worker.freshForMs=0}, as before) and by one at the default window.
 */
public final class FreshBench {

  private static final int REPEATS = 15;
  private static final long ROUND_TRIP_MS = 100;

  public static void main(String[] args) throws Exception {
    Vertx outside = Vertx.vertx();
    ParquetServer files = ParquetServer.start(outside);
    Path work = Scratch.dir("quarry-fresh-bench");
    byte[] people = ParquetFixtures.people(work);
    files.route("/near.parquet").content(people);
    files.route("/far.parquet").content(people).roundTrip(ROUND_TRIP_MS);
    System.out.printf(Locale.ROOT, "%nThe same count(*) %d times, medians, %d cores; the far origin answers %d ms late%n",
        REPEATS, Runtime.getRuntime().availableProcessors(), ROUND_TRIP_MS);
    try {
      for (long freshForMs : new long[] {0, 60_000}) {
        Node node = start(work.resolve("node-" + freshForMs), freshForMs);
        try {
          WebClient client = LocalNode.client(node);
          double near = repeated(client, files.url("/near.parquet"));
          double far = repeated(client, files.url("/far.parquet"));
          System.out.printf(Locale.ROOT, "  worker.freshForMs=%-6d near %6.1f ms, far %6.1f ms  (far / near %.2f×)%n",
              freshForMs, near, far, far / near);
        } finally {
          node.stop().await();
        }
      }
    } finally {
      outside.close().await();
    }
  }

  private static Node start(Path dir, long freshForMs) {
    return LocalNode.start(dir, Map.of("QUARRY_WORKER_FRESH_FOR_MS", String.valueOf(freshForMs)));
  }

  /** The median of the repeated query's round trips, after the first (which adds the file and fetches it). */
  private static double repeated(WebClient client, String url) {
    String conversation = send(client, HttpMethod.POST, "/api/conversations", new JsonObject()).getString("id");
    send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/datasets", new JsonObject().put("url", url));
    JsonObject sql = new JsonObject().put("sql", "SELECT count(*) FROM table1");
    send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/query", sql);
    List<Double> ms = new ArrayList<>();
    for (int i = 0; i < REPEATS; i++) {
      long start = System.nanoTime();
      send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/query", sql);
      ms.add((System.nanoTime() - start) / 1e6);
    }
    Collections.sort(ms);
    return ms.get(ms.size() / 2);
  }

}
