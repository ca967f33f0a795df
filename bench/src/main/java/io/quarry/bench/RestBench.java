package io.quarry.bench;

import static io.quarry.bench.LocalNode.send;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 53 item 1, on loopback only: what a warm query costs on top of its engine. One node of each jar given (its own
 * JVM, default mode, as an operator starts it), measured in turn in the same run:
 * <ol>
 *   <li>a trivial query over REST ({@code POST /api/conversations/:id/query}) against {@code GET /api/health/live},
 *       interleaved, p50 and p99 of each and their ratio (goal ≤ 2×), and the same query in a conversation without
 *       datasets;</li>
 *   <li>{@link ColdBench}'s six queries over its three files (flights: 3 M rows), warm, end to end through the node
 *       against the same six in a bare DuckDB JDBC connection in this JVM over the same local files (goal ≤ 1.15×).</li>
 * </ol>
 * Arguments: jars to measure beside this build's (app/target/quarry.jar); e.g. {@code bench/run.sh rest before.jar}.
 * Their nodes are all up at once, which is fair between them but slowed each query by 1.5–2 ms on 2 cores (not
 * {@code live}): a figure against {@code live} is a node's alone ({@code bench/run.sh lean} runs each so).
 * System properties: {@code rest.rounds} / {@code rest.sixRounds} (1,000 / 30), {@code rest.onlyGiven} (leave this
 * build's node out), {@code rest.keepLogs} (a directory each node's log is copied to as it stops).
 */
public final class RestBench {

  static final String TRIVIAL = "SELECT 42 AS n";
  static final int WARMUP = 300;
  static final int ROUNDS = Integer.getInteger("rest.rounds", 1000);
  static final int SIX_WARMUP = 10;
  static final int SIX_ROUNDS = Integer.getInteger("rest.sixRounds", 30);

  public static void main(String[] args) throws Exception {
    List<Path> jars = new ArrayList<>();
    for (String arg : args) {
      jars.add(Path.of(arg));
    }
    // This build's node is measured beside the jars given, unless told otherwise (-Drest.onlyGiven=true).
    if (jars.isEmpty() || !jars.contains(Path.of("app/target/quarry.jar")) && !Boolean.getBoolean("rest.onlyGiven")) {
      jars.add(Path.of("app/target/quarry.jar"));
    }
    Path files = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench", "cold"));
    ColdBench.generate(files);
    Vertx outside = Vertx.vertx();
    List<Side> sides = new ArrayList<>();
    try {
      ParquetServer server = ParquetServer.start(outside);
      for (String table : ColdBench.TABLES) {
        server.route("/" + table + ".parquet").file(files.resolve(table + ".parquet")).zeroCopy();
      }
      for (Path jar : jars) {
        sides.add(Side.start(jar, Scratch.dir("quarry-rest-bench"), outside, server));
      }
      System.out.printf(Locale.ROOT, "%nWarm queries, %d cores; nodes of %s, measured in turn%n",
          Runtime.getRuntime().availableProcessors(), jars);
      trivial(sides);
      six(sides, files);
    } finally {
      for (Side side : sides) {
        side.close();
      }
      outside.close().await();
    }
  }

  /**
   * Each round, every node in another order: its query, the same in the conversation without datasets and its liveness
   * check, in another order too.
   */
  private static void trivial(List<Side> sides) {
    Map<Side, double[]> query = new LinkedHashMap<>();
    Map<Side, double[]> empty = new LinkedHashMap<>();
    Map<Side, double[]> live = new LinkedHashMap<>();
    sides.forEach(s -> {
      query.put(s, new double[ROUNDS]);
      empty.put(s, new double[ROUNDS]);
      live.put(s, new double[ROUNDS]);
    });
    for (int i = -WARMUP; i < ROUNDS; i++) {
      for (int k = 0; k < sides.size(); k++) {
        Side side = sides.get(Math.floorMod(i + k, sides.size()));
        // The first call to a node after the other node's pays for waking its threads (some 0.4 ms on 2 cores): the
        // three calls take turns at going first.
        double q = 0;
        double e = 0;
        double l = 0;
        for (int call = 0; call < 3; call++) {
          switch (Math.floorMod(i + call, 3)) {
            case 0 -> q = side.trivial(side.base);
            case 1 -> e = side.trivial(side.empty);
            default -> l = side.live();
          }
        }
        if (i >= 0) {
          query.get(side)[i] = q;
          empty.get(side)[i] = e;
          live.get(side)[i] = l;
        }
      }
    }
    System.out.printf(Locale.ROOT, "%n1. '%s' over REST against GET /api/health/live, interleaved, %d rounds (goal ≤ 2×)%n",
        TRIVIAL, ROUNDS);
    for (Side side : sides) {
      double[] q = query.get(side);
      double[] l = live.get(side);
      System.out.printf(Locale.ROOT, "   %-40s query p50 %6.2f p99 %6.2f min %5.2f ms   live p50 %5.2f p99 %5.2f ms"
          + "   query/live p50 %5.2f×  p99 %5.2f×%n", side.jar, pct(q, 0.5), pct(q, 0.99), pct(q, 0), pct(l, 0.5),
          pct(l, 0.99), pct(q, 0.5) / pct(l, 0.5), pct(q, 0.99) / pct(l, 0.99));
      double[] e = empty.get(side);
      System.out.printf(Locale.ROOT, "   %-40s the same in a conversation without datasets: p50 %6.2f p99 %6.2f min %5.2f ms%n",
          "", pct(e, 0.5), pct(e, 0.99), pct(e, 0));
      BenchSummary.row("SELECT n over REST p50 vs live (goal ≤ 2×)", side.jar, String.format(Locale.ROOT,
          "%.2f vs %.2f ms (%.2f×; min %.2f)", pct(q, 0.5), pct(l, 0.5), pct(q, 0.5) / pct(l, 0.5), pct(q, 0)));
    }
  }

  /**
   * Each round: the six through every node in turn, then the six in bare DuckDB. Reported: the medians of each side's
   * round (the six summed) and of each query alone.
   */
  private static void six(List<Side> sides, Path files) throws Exception {
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
      for (String table : ColdBench.TABLES) {
        s.execute("CREATE VIEW " + table + " AS SELECT * FROM read_parquet('" + files.resolve(table + ".parquet") + "')");
      }
      int n = ColdBench.QUERIES.size();
      Map<Object, double[][]> times = new LinkedHashMap<>();
      times.put("bare", new double[n + 1][SIX_ROUNDS]);
      sides.forEach(side -> times.put(side, new double[n + 1][SIX_ROUNDS]));
      for (int i = -SIX_WARMUP; i < SIX_ROUNDS; i++) {
        for (int k = 0; k <= sides.size(); k++) {
          Side side = k == sides.size() ? null : sides.get(Math.floorMod(i + k, sides.size()));
          double[][] mine = times.get(side == null ? "bare" : side);
          long round = System.nanoTime();
          for (int q = 0; q < n; q++) {
            long t0 = System.nanoTime();
            if (side == null) {
              bare(duck, ColdBench.QUERIES.get(q));
            } else {
              side.query(ColdBench.QUERIES.get(q));
            }
            if (i >= 0) {
              mine[q + 1][i] = (System.nanoTime() - t0) / 1e6;
            }
          }
          if (i >= 0) {
            mine[0][i] = (System.nanoTime() - round) / 1e6;
          }
        }
      }
      double[][] bare = times.get("bare");
      double b = pct(bare[0], 0.5);
      System.out.printf(Locale.ROOT, "%n2. Six warm queries over 3 files (3 M-row flights) end to end, medians of %d"
          + " rounds (goal ≤ 1.15×)%n   bare DuckDB (JDBC, this JVM)             %7.1f ms   each %s%n", SIX_ROUNDS, b,
          each(bare));
      for (Side side : sides) {
        double[][] mine = times.get(side);
        double q = pct(mine[0], 0.5);
        System.out.printf(Locale.ROOT, "   %-40s %7.1f ms   %.2f× bare   %+.1f ms a query   each %s%n", side.jar, q,
            q / b, (q - b) / n, each(mine));
        BenchSummary.row("six warm queries vs bare DuckDB (goal ≤ 1.15×)", side.jar, String.format(Locale.ROOT,
            "%.1f vs %.1f ms (%.2f×, %+.1f ms a query)", q, b, q / b, (q - b) / n));
      }
    }
  }

  private static String each(double[][] times) {
    StringBuilder out = new StringBuilder();
    for (int q = 1; q < times.length; q++) {
      out.append(String.format(Locale.ROOT, q == 1 ? "%.1f" : " / %.1f", pct(times[q], 0.5)));
    }
    return out.toString();
  }

  /** The same work as a worker: run, convert up to 1,000 rows to Java objects, count the rest. */
  private static void bare(Connection duck, String sql) throws Exception {
    try (Statement s = duck.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      int width = rs.getMetaData().getColumnCount();
      long count = 0;
      while (rs.next()) {
        if (count++ < 1000) {
          for (int i = 1; i <= width; i++) {
            rs.getObject(i);
          }
        }
      }
    }
  }

  static double pct(double[] values, double p) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  }

  /** A node of one jar, with a conversation holding the three files as flights, cars and weather. */
  private static final class Side implements AutoCloseable {
    final Path jar;
    final JarNode node;
    final WebClient client;
    final Path log;
    String base;
    /** A conversation without datasets: what the three tables cost a query that reads none of them. */
    String empty;

    private Side(Path jar, JarNode node, WebClient client, Path log) {
      this.jar = jar;
      this.node = node;
      this.client = client;
      this.log = log;
    }

    static Side start(Path jar, Path dir, Vertx outside, ParquetServer server) throws Exception {
      int port = JarCommand.freePort();
      Map<String, String> env = Map.of("QUARRY_HTTP_PORT", String.valueOf(port), "QUARRY_DATA_DIR", dir.toString(),
          "QUARRY_ALLOW_PRIVATE_NETWORKS", "true", "QUARRY_CHAT_WRITE_BURST", "100000");
      JarNode node = JarNode.launch(jar, dir.resolve("node.log"), env, "--config", dir.resolve("none.json").toString());
      node.awaitStarted(180);
      WebClient client = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(port).setKeepAlive(true));
      Side side = new Side(jar, node, client, dir.resolve("node.log"));
      side.base = "/api/conversations/" + send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .getString("id");
      side.empty = "/api/conversations/" + send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .getString("id");
      for (String table : ColdBench.TABLES) {
        JsonObject added = send(client, HttpMethod.POST, side.base + "/datasets",
            new JsonObject().put("url", server.url("/" + table + ".parquet")));
        send(client, HttpMethod.PATCH, side.base + "/datasets/" + added.getString("id"),
            new JsonObject().put("name", table));
      }
      return side;
    }

    double trivial(String conversation) {
      long t0 = System.nanoTime();
      query(conversation, TRIVIAL);
      return (System.nanoTime() - t0) / 1e6;
    }

    void query(String sql) {
      query(base, sql);
    }

    private void query(String conversation, String sql) {
      send(client, HttpMethod.POST, conversation + "/query", new JsonObject().put("sql", sql));
    }

    double live() {
      long t0 = System.nanoTime();
      HttpResponse<Buffer> response = client.get("/api/health/live").send().await();
      if (response.statusCode() != 200) {
        throw new IllegalStateException("live answered " + response.statusCode());
      }
      return (System.nanoTime() - t0) / 1e6;
    }

    @Override
    public void close() throws Exception {
      node.terminate();
      node.awaitEnded(60);
      String keep = System.getProperty("rest.keepLogs");
      if (keep != null) {
        Path dir = Files.createDirectories(Path.of(keep));
        Files.copy(log, dir.resolve(jar.getFileName() + "-" + System.nanoTime() + ".log"));
      }
    }
  }
}
