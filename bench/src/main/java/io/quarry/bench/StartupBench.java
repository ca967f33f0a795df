package io.quarry.bench;

import io.quarry.testing.JarCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Issue 53's start-up and memory benchmark, default mode ({@code java -jar quarry.jar}), two jars alternately in one
 * run: time to {@code /api/health/ready}; the memory (resident, the node and every process it started) 5 s after
 * that; the first query's time (a node that starts its workers on demand starts one for it) and the memory after it;
 * and a worker process SIGKILLed until it is ready again. Each jar keeps its data directory across its runs, as an
 * operator's does: the first start is reported apart (it creates the database; the workers' class archive is written
 * when it stops). The current jar runs twice: as is, and with the class archive its {@code class-archive} command
 * wrote at the benchmark's start (README, "A faster start").
 *
 * <p>Arguments: the jar before the change, the current jar.
 */
public final class StartupBench {

  private static final int RUNS = 5;
  private static final long LIMIT_S = 120;
  private static final long SETTLE_MS = 5_000;

  /** One start of one jar. */
  private record Start(double readyMs, double idleMb, double firstQueryMs, double queriedMb, double restartMs) {
  }

  /** A jar as started: {@code options} before {@code -jar}. */
  private record Variant(String label, Path jar, List<String> options) {
  }

  public static void main(String[] args) throws Exception {
    Path work = Scratch.dir("quarry-startup");
    Path archive = work.resolve("quarry.jsa");
    Path current = Path.of(args[1]);
    Process writing = new ProcessBuilder(JarCommand.of(current, List.of(), "class-archive", archive.toString()))
        .redirectErrorStream(true).start();
    String wrote = new String(writing.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
    if (writing.waitFor() != 0) {
      throw new IllegalStateException(wrote);
    }
    List<Variant> variants = List.of(new Variant("before", Path.of(args[0]), List.of()),
        new Variant("after", current, List.of()),
        new Variant("after, with its class archive", current, List.of("-XX:SharedArchiveFile=" + archive)));
    List<List<Start>> starts = new ArrayList<>();
    variants.forEach(v -> starts.add(new ArrayList<>()));
    System.out.printf(Locale.ROOT, "java -jar to ready, memory and first query (default mode), %d cores, %d runs each,"
        + " alternating; %s%n", Runtime.getRuntime().availableProcessors(), RUNS, wrote);
    for (int i = 0; i < RUNS; i++) {
      for (int j = 0; j < variants.size(); j++) {
        Variant variant = variants.get(j);
        Start start = start(variant, work.resolve("data-" + j));
        starts.get(j).add(start);
        System.out.printf(Locale.ROOT, "   run %d %-30s ready %6.0f ms  idle %5.0f MB  first query %6.0f ms  then %5.0f"
            + " MB  worker back %6.0f ms%n", i + 1, variant.label(), start.readyMs(), start.idleMb(),
            start.firstQueryMs(), start.queriedMb(), start.restartMs());
      }
    }
    System.out.printf(Locale.ROOT, "%n   %-34s %10s %10s %7s %14s %7s%n", "later starts, median", "before", "after",
        "ratio", "with archive", "ratio");
    row(variants, starts, "to /api/health/ready, ms", "java -jar to ready (goal ≤ 3 s)", Start::readyMs);
    row(variants, starts, "resident 5 s after ready, MB", "resident 5 s after ready (goal ≤ 500 MB)", Start::idleMb);
    row(variants, starts, "first query after that, ms", "the first query then", Start::firstQueryMs);
    row(variants, starts, "resident after it, MB", "resident after it", Start::queriedMb);
    row(variants, starts, "a killed worker ready again, ms", "a killed worker ready again", Start::restartMs);
  }

  private static void row(List<Variant> variants, List<List<Start>> starts, String name, String figureName,
      java.util.function.ToDoubleFunction<Start> figure) {
    double[] medians = new double[variants.size()];
    for (int i = 0; i < medians.length; i++) {
      medians[i] = median(starts.get(i).subList(1, RUNS).stream().mapToDouble(figure).toArray());
      Variant variant = variants.get(i);
      BenchSummary.row(figureName, variant.options().isEmpty() ? variant.jar() : variant.jar() + " with its class archive",
          String.format(Locale.ROOT, name.endsWith("MB") ? "%.0f MB" : "%.0f ms", medians[i]));
    }
    System.out.printf(Locale.ROOT, "   %-34s %10.0f %10.0f %6.2f× %14.0f %6.2f×%n", name, medians[0], medians[1],
        medians[1] / medians[0], medians[2], medians[2] / medians[0]);
  }

  private static Start start(Variant variant, Path data) throws Exception {
    int port = JarCommand.freePort();
    ProcessBuilder builder = new ProcessBuilder(JarCommand.of(variant.jar(), variant.options(), "--config",
        data.resolve("absent.json").toString()))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("QUARRY_HTTP_PORT", String.valueOf(port));
    builder.environment().put("QUARRY_DATA_DIR", data.toString());
    // A node with a model to ask, as an operator's is (a key warms the SDK up); no question reaches the address.
    builder.environment().put("GEMINI_API_KEY", "startup-bench");
    builder.environment().put("GEMINI_BASE_URL", "http://127.0.0.1:9");
    Node node = new Node(port);
    long started = System.nanoTime();
    Process process = builder.start();
    try {
      double readyMs = node.awaitReady(process, started);
      Thread.sleep(SETTLE_MS);
      double idleMb = residentMb(process);
      long asked = System.nanoTime();
      node.query("SELECT 42 AS answer");
      double firstQueryMs = (System.nanoTime() - asked) / 1e6;
      double queriedMb = residentMb(process);
      return new Start(readyMs, idleMb, firstQueryMs, queriedMb, node.restart());
    } finally {
      JarCommand.stop(process);
    }
  }

  /** The node's HTTP API, as the local user (default mode) sees it. */
  private static final class Node {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    private final String base;

    Node(int port) {
      this.base = "http://127.0.0.1:" + port;
    }

    /** Polls readiness every 20 ms: ms from {@code started} until it answers 200. */
    double awaitReady(Process process, long started) throws Exception {
      HttpRequest ready = HttpRequest.newBuilder(URI.create(base + "/api/health/ready")).timeout(Duration.ofSeconds(2))
          .build();
      long deadline = started + TimeUnit.SECONDS.toNanos(LIMIT_S);
      while (System.nanoTime() < deadline) {
        try {
          if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return (System.nanoTime() - started) / 1e6;
          }
        } catch (IOException notYet) {
          // Not listening yet.
        }
        if (!process.isAlive()) {
          throw new IllegalStateException("the node exited with status " + process.exitValue());
        }
        Thread.sleep(20);
      }
      throw new IllegalStateException("the node was not ready within " + LIMIT_S + " s");
    }

    /** A conversation of its own, and {@code sql} in it; fails unless it answers 200. */
    void query(String sql) throws Exception {
      String conversation = new JsonObject(post("/api/conversations", "{}")).getString("id");
      post("/api/conversations/" + conversation + "/query", new JsonObject().put("sql", sql).encode());
    }

    private String post(String path, String body) throws Exception {
      HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
          .header("Origin", base).POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(LIMIT_S))
          .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        throw new IllegalStateException(path + ": " + response.statusCode() + " " + response.body());
      }
      return response.body();
    }

    /** SIGKILLs the first ready worker process and polls every 20 ms until it is ready again: ms. */
    double restart() throws Exception {
      JsonObject worker = firstReady();
      long killed = System.nanoTime();
      ProcessHandle.of(worker.getLong("pid")).orElseThrow().destroyForcibly();
      long deadline = killed + TimeUnit.SECONDS.toNanos(LIMIT_S);
      while (System.nanoTime() < deadline) {
        for (Object each : workers()) {
          JsonObject now = (JsonObject) each;
          if (now.getString("name").equals(worker.getString("name")) && now.getString("state").equals("ready")
              && now.getInteger("restarts") > worker.getInteger("restarts")) {
            return (System.nanoTime() - killed) / 1e6;
          }
        }
        Thread.sleep(20);
      }
      throw new IllegalStateException("the worker did not come back within " + LIMIT_S + " s");
    }

    private JsonObject firstReady() throws Exception {
      return workers().stream().map(JsonObject.class::cast).filter(w -> w.getString("state").equals("ready"))
          .findFirst().orElseThrow(() -> new IllegalStateException("no worker process is ready after a query"));
    }

    private JsonArray workers() throws Exception {
      HttpRequest nodes = HttpRequest.newBuilder(URI.create(base + "/api/health/nodes")).build();
      JsonObject local = new JsonObject(http.send(nodes, HttpResponse.BodyHandlers.ofString()).body())
          .getJsonObject("local_workers");
      return local == null ? new JsonArray() : local.getJsonArray("workers");
    }
  }

  /** Resident memory of the node and every process it started, from procfs. */
  private static double residentMb(Process node) {
    long kb = Stream.concat(Stream.of(node.toHandle()), node.descendants()).mapToLong(p -> residentKb(p.pid())).sum();
    return kb / 1024.0;
  }

  private static long residentKb(long pid) {
    try {
      return Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
          .filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).sum();
    } catch (IOException gone) {
      return 0;
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
