package io.quarry.bench;

import static io.quarry.bench.LocalNode.send;

import io.quarry.testing.JarNode;
import io.quarry.testing.JarCommand;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 38's cold path, on loopback only: from a fresh start, three datasets the size of flights (3 M rows), cars and
 * weather added to a conversation and six real queries over them, end to end through a node of the jar (its own JVM,
 * default mode, healthy before the clock starts), against bare DuckDB over the same local files in a fresh JVM of its
 * own (connection, views, the same six queries). Each side runs three times, each from a fresh start: for Quarry a new
 * data directory (no dataset, nothing cached) with the class archive its workers wrote at the jar's very first start,
 * which is reported apart. The origin sends with sendfile, as a production static server does.
 *
 * <p>Argument: the jar (app/target/quarry.jar unless given).
 */
public final class ColdBench {

  private static final int RUNS = 3;
  static final List<String> TABLES = List.of("flights", "cars", "weather");
  static final List<String> QUERIES = List.of(
      "SELECT carrier, avg(arr_delay) AS delay FROM flights GROUP BY carrier ORDER BY delay DESC",
      "SELECT origin, count(*) AS late FROM flights WHERE dep_delay > 60 GROUP BY origin ORDER BY late DESC LIMIT 10",
      "SELECT cylinders, avg(mpg) AS mpg FROM cars GROUP BY cylinders ORDER BY cylinders",
      "SELECT name, horsepower FROM cars ORDER BY horsepower DESC LIMIT 5",
      "SELECT station, max(temp) AS hottest FROM weather GROUP BY station ORDER BY hottest DESC LIMIT 5",
      "SELECT month(day) AS m, sum(precip) AS rain FROM weather GROUP BY m ORDER BY m");

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--bare")) {
      bare(Path.of(args[1]));
      return;
    }
    Path jar = Path.of(args.length > 0 ? args[0] : "app/target/quarry.jar");
    Path files = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir"), "quarry-bench", "cold"));
    generate(files);
    Vertx outside = Vertx.vertx();
    try {
      ParquetServer server = ParquetServer.start(outside);
      for (String table : List.of("flights", "cars", "weather")) {
        server.route("/" + table + ".parquet").file(files.resolve(table + ".parquet")).zeroCopy();
      }
      List<Double> quarry = new ArrayList<>();
      List<Double> duck = new ArrayList<>();
      Path archive = Scratch.dir("quarry-cold-archive");
      System.out.println("First start of this jar (its workers write their class archive):");
      double first = throughQuarry(jar, server, outside, Scratch.dir("quarry-cold-bench"), archive);
      for (int run = 0; run < RUNS; run++) {
        quarry.add(throughQuarry(jar, server, outside, Scratch.dir("quarry-cold-bench"), archive));
        duck.add(bareInItsOwnJvm(files));
      }
      double q = median(quarry);
      double d = median(duck);
      System.out.printf(Locale.ROOT, "%nFrom a fresh start, 3 datasets and 6 queries end to end, medians of %d, %d cores:%n"
          + "  bare DuckDB (own JVM)  %7.0f ms  %s%n  Quarry (node of the jar) %5.0f ms  %s%n  Quarry / bare DuckDB  %.2f×"
          + " (goal 1.15×)%n  the jar's very first start (no class archive yet): %.0f ms, %.2f×%n", RUNS,
          Runtime.getRuntime().availableProcessors(), d, duck, q, quarry, q / d, first, first / d);
    } finally {
      outside.close().await();
    }
  }

  /** The adds and queries through a node started for this run, timed from its health to the last answer. */
  private static double throughQuarry(Path jar, ParquetServer server, Vertx outside, Path dir, Path archive)
      throws Exception {
    Path config = Files.writeString(dir.resolve("cold.json"), new JsonObject().put("localWorkers",
        new JsonObject().put("classArchiveDir", archive.toString())).encode());
    int port = JarCommand.freePort();
    Map<String, String> env = Map.of("QUARRY_HTTP_PORT", String.valueOf(port), "QUARRY_DATA_DIR", dir.toString(),
        "QUARRY_ALLOW_PRIVATE_NETWORKS", "true");
    JarNode node = JarNode.launch(jar, dir.resolve("node.log"), env, "--config", config.toString());
    try {
      node.awaitStarted(180);
      WebClient client = WebClient.create(outside, new WebClientOptions().setDefaultHost("127.0.0.1")
          .setDefaultPort(port));
      long started = System.nanoTime();
      String base = "/api/conversations/" + send(client, HttpMethod.POST, "/api/conversations", new JsonObject())
          .getString("id");
      List<Long> steps = new ArrayList<>();
      steps.add(System.nanoTime());
      for (String table : List.of("flights", "cars", "weather")) {
        JsonObject added = send(client, HttpMethod.POST, base + "/datasets",
            new JsonObject().put("url", server.url("/" + table + ".parquet")));
        send(client, HttpMethod.PATCH, base + "/datasets/" + added.getString("id"), new JsonObject().put("name", table));
        steps.add(System.nanoTime());
      }
      long added = System.nanoTime();
      for (String sql : QUERIES) {
        send(client, HttpMethod.POST, base + "/query", new JsonObject().put("sql", sql));
        steps.add(System.nanoTime());
      }
      long done = System.nanoTime();
      List<String> each = new ArrayList<>();
      for (int i = 1; i < steps.size(); i++) {
        each.add(String.format(Locale.ROOT, "%.0f", (steps.get(i) - steps.get(i - 1)) / 1e6));
      }
      System.out.printf(Locale.ROOT, "  Quarry run: conversation %.0f ms, 3 adds %.0f ms, 6 queries %.0f ms (each: %s)%n",
          (steps.get(0) - started) / 1e6, (added - steps.get(0)) / 1e6, (done - added) / 1e6, each);
      return (done - started) / 1e6;
    } finally {
      node.terminate();
      node.awaitEnded(60);
    }
  }

  private static double bareInItsOwnJvm(Path files) throws Exception {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
        System.getProperty("java.class.path"), ColdBench.class.getName(), "--bare", files.toString())
        .redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes()).strip();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("bare DuckDB failed: " + output);
    }
    int last = output.lastIndexOf('\n');
    System.out.println(output.substring(0, Math.max(0, last)));
    return Double.parseDouble(output.substring(last + 1));
  }

  /** In the fresh JVM: a connection, a view per file, the six queries read to their last row; prints the ms. */
  private static void bare(Path files) throws Exception {
    long started = System.nanoTime();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); Statement s = duck.createStatement()) {
      for (String table : List.of("flights", "cars", "weather")) {
        s.execute("CREATE VIEW " + table + " AS SELECT * FROM read_parquet('" + files.resolve(table + ".parquet") + "')");
      }
      System.out.printf(Locale.ROOT, "  bare run: connection and 3 views %.0f ms%n", (System.nanoTime() - started) / 1e6);
      for (String sql : QUERIES) {
        try (ResultSet rows = s.executeQuery(sql)) {
          while (rows.next()) {
            rows.getObject(1);
          }
        }
      }
    }
    System.out.println((System.nanoTime() - started) / 1e6);
  }

  static void generate(Path dir) {
    if (!Files.exists(dir.resolve("flights.parquet"))) {
      ParquetFixtures.create(dir.resolve("flights.parquet"), "SELECT DATE '2024-01-01' + (i % 366)::INT AS day,"
          + " ['AA','DL','UA','WN','B6','AS','NK','F9'][1 + i % 8] AS carrier, 'O' || (i % 300) AS origin,"
          + " 'D' || ((i * 7) % 300) AS dest, (random() * 120 - 20)::DOUBLE AS dep_delay,"
          + " (random() * 130 - 30)::DOUBLE AS arr_delay, (100 + i % 2500)::INT AS distance FROM range(3000000) t(i)");
      ParquetFixtures.create(dir.resolve("cars.parquet"), "SELECT 'car ' || i AS name, (10 + random() * 35)::DOUBLE"
          + " AS mpg, [4, 6, 8][1 + i % 3] AS cylinders, (60 + i % 200)::INT AS horsepower FROM range(406) t(i)");
      ParquetFixtures.create(dir.resolve("weather.parquet"), "SELECT DATE '2024-01-01' + (i % 366)::INT AS day,"
          + " 'S' || (i % 50) AS station, (random() * 40 - 5)::DOUBLE AS temp, (random() * 20)::DOUBLE AS precip"
          + " FROM range(18300) t(i)");
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }
}
