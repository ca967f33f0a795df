package io.quarry.bench;

import io.quarry.app.Node;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 49's charts of whole results, loopback only: each kind of chart of a 2,000,000-row result
 * ({@code POST /api/results/:rid/chart}, the result's SQL run again inside the chart's own on a worker) against the
 * baseline of running the result's own SQL again ({@code POST /query}: the same read of the file, the first 1,000 rows
 * and an exact count), in the same node and run.
 */
public final class ChartBench {

  static final int ROWS = 2_000_000;
  static final int ROUNDS = 5;
  static final String SQL = "SELECT * FROM table1";

  public static void main(String[] args) throws Exception {
    Path work = Scratch.dir("quarry-chart-bench");
    Path parquet = work.resolve("big.parquet");
    ParquetFixtures.create(parquet, "SELECT i AS id, 'group ' || (i % 50) AS grp, i % 997 AS amount, random() AS r,"
        + " TIMESTAMP '2024-01-01' + to_seconds(i) AS at FROM range(" + ROWS + ") t(i)");
    Vertx outside = Vertx.vertx();
    ParquetServer files = ParquetServer.start(outside);
    files.route("/big.parquet").file(parquet);
    Node node = LocalNode.start(work.resolve("node"), Map.of());
    try {
      WebClient client = LocalNode.client(node);
      String conversation = LocalNode.send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .getString("id");
      LocalNode.send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
          new JsonObject().put("url", files.url("/big.parquet")));
      JsonObject query = new JsonObject().put("sql", SQL);
      String resultId = LocalNode.send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/query", query)
          .getString("id");
      Map<String, JsonObject> charts = new LinkedHashMap<>();
      charts.put("bar, 50 groups", spec("bar", "grp").put("y", new JsonArray().add("amount")));
      charts.put("line, 1,000 steps", spec("line", "at").put("y", new JsonArray().add("amount")));
      charts.put("histogram", spec("histogram", "amount"));
      charts.put("scatter sample", spec("scatter", "r").put("y", new JsonArray().add("amount")));
      charts.put("heat map", spec("heatmap", "grp").put("series", "amount").put("aggregate", "count"));
      System.out.printf(Locale.ROOT, "%nCharts of a %,d-row result against running its SQL again (%s); median of %d"
          + " alternating rounds; %d cores%n", ROWS, SQL, ROUNDS, Runtime.getRuntime().availableProcessors());
      for (Map.Entry<String, JsonObject> chart : charts.entrySet()) {
        List<Double> drawn = new ArrayList<>();
        List<Double> rerun = new ArrayList<>();
        String shows = "";
        for (int round = 0; round <= ROUNDS; round++) {
          long started = System.nanoTime();
          shows = LocalNode.send(client, HttpMethod.POST, "/api/results/" + resultId + "/chart", chart.getValue())
              .getString("shows");
          double chartMs = (System.nanoTime() - started) / 1e6;
          started = System.nanoTime();
          LocalNode.send(client, HttpMethod.POST, "/api/conversations/" + conversation + "/query", query);
          if (round > 0) {
            drawn.add(chartMs);
            rerun.add((System.nanoTime() - started) / 1e6);
          }
        }
        double c = LoadStats.median(drawn);
        double q = LoadStats.median(rerun);
        System.out.printf(Locale.ROOT, "  %-18s %8.1f ms, the query again %8.1f ms: %.2f×  (%s)%n", chart.getKey(), c, q,
            c / q, shows);
      }
    } finally {
      node.stop().await();
      outside.close().await();
    }
  }

  private static JsonObject spec(String type, String x) {
    return new JsonObject().put("chart_type", type).put("x", x);
  }
}
