package io.quarry.bench;

import io.quarry.testing.JarCommand;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Issue 8's start-up benchmark: time from {@code java -jar quarry.jar} (default mode) to a healthy node —
 * {@code /api/health} answering 200, which a node with worker processes does only once they are all
 * ready — for the jar before worker isolation and the current one, alternately, in one run. Each jar
 * keeps its data directory across its runs, as an operator's does: the first start is reported apart
 * (it creates the database, and the workers' class archive is written when it stops).
 *
 * <p>Arguments: the jar before the change, the current jar.
 */
public final class StartupBench {

  private static final int RUNS = 5;
  private static final long LIMIT_S = 120;

  public static void main(String[] args) throws Exception {
    Path before = Path.of(args[0]);
    Path after = Path.of(args[1]);
    Path work = Scratch.dir("quarry-startup");
    List<Double> beforeMs = new ArrayList<>();
    List<Double> afterMs = new ArrayList<>();
    List<Double> restartMs = new ArrayList<>();
    System.out.printf(Locale.ROOT, "Time from java -jar to healthy (default mode), %d cores, %d runs each, alternating%n",
        Runtime.getRuntime().availableProcessors(), RUNS);
    for (int i = 0; i < RUNS; i++) {
      beforeMs.add(timeToHealthy(before, work.resolve("before"), null));
      afterMs.add(timeToHealthy(after, work.resolve("after"), restartMs));
      System.out.printf(Locale.ROOT, "   run %d: before %7.0f ms   after %7.0f ms%n", i + 1, beforeMs.get(i), afterMs.get(i));
    }
    double b = median(beforeMs.subList(1, RUNS));
    double a = median(afterMs.subList(1, RUNS));
    System.out.printf(Locale.ROOT, "   first start (empty data directory): before %.0f ms, after %.0f ms%n", beforeMs.get(0),
        afterMs.get(0));
    System.out.printf(Locale.ROOT, "   later starts, median: before %.0f ms, after %.0f ms (%.2f×, +%.0f ms)%n", b, a, a / b,
        a - b);
    System.out.printf(Locale.ROOT, "   a worker process SIGKILLed until it is ready again: median %.0f ms, max %.0f ms (%d kills)%n",
        median(restartMs), restartMs.stream().mapToDouble(Double::doubleValue).max().orElse(0), restartMs.size());
  }

  /**
   * Starts the jar, polls its health every 20 ms, then (when {@code restarts} is given) kills one worker
   * process and times its return, then stops the node and its workers.
   */
  private static double timeToHealthy(Path jar, Path data, List<Double> restarts) throws Exception {
    int port = JarCommand.freePort();
    ProcessBuilder builder = new ProcessBuilder(JarCommand.of(jar, List.of(), "--config", data.resolve("absent.json").toString()))
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD);
    builder.environment().put("QUARRY_HTTP_PORT", String.valueOf(port));
    builder.environment().put("QUARRY_DATA_DIR", data.toString());
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/health"))
        .timeout(Duration.ofSeconds(2)).build();
    long started = System.nanoTime();
    Process node = builder.start();
    try {
      long deadline = started + TimeUnit.SECONDS.toNanos(LIMIT_S);
      while (System.nanoTime() < deadline) {
        try {
          if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            double healthy = (System.nanoTime() - started) / 1e6;
            if (restarts != null) {
              restarts.add(restart(http, health));
            }
            return healthy;
          }
        } catch (IOException notYet) {
          // Not listening yet.
        }
        if (!node.isAlive()) {
          throw new IllegalStateException(jar + " exited with status " + node.exitValue());
        }
        Thread.sleep(20);
      }
      throw new IllegalStateException(jar + " was not healthy within " + LIMIT_S + " s");
    } finally {
      JarCommand.stop(node);
    }
  }

  /**
   * SIGKILLs the first worker process once it is ready and polls health every 20 ms until it is ready again. Health
   * answers before the worker role has started: until then the node lists no worker processes.
   */
  private static double restart(HttpClient http, HttpRequest health) throws Exception {
    JsonObject worker = firstReady(http, health);
    long killed = System.nanoTime();
    ProcessHandle.of(worker.getLong("pid")).orElseThrow().destroyForcibly();
    long deadline = killed + TimeUnit.SECONDS.toNanos(LIMIT_S);
    while (System.nanoTime() < deadline) {
      JsonArray workers = workers(http, health);
      JsonObject now = workers.isEmpty() ? worker : workers.getJsonObject(0);
      if (now.getInteger("restarts") > worker.getInteger("restarts") && now.getString("state").equals("ready")) {
        return (System.nanoTime() - killed) / 1e6;
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("the worker did not come back within " + LIMIT_S + " s");
  }

  private static JsonObject firstReady(HttpClient http, HttpRequest health) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(LIMIT_S);
    while (System.nanoTime() < deadline) {
      JsonArray workers = workers(http, health);
      if (!workers.isEmpty() && workers.getJsonObject(0).getString("state").equals("ready")) {
        return workers.getJsonObject(0);
      }
      Thread.sleep(20);
    }
    throw new IllegalStateException("no worker process was ready within " + LIMIT_S + " s");
  }

  /** The node's worker processes, as a (local-mode) user sees them; none while the worker role is starting. */
  private static JsonArray workers(HttpClient http, HttpRequest health) throws Exception {
    HttpRequest nodes = HttpRequest.newBuilder(URI.create(health.uri() + "/nodes")).build();
    String body = http.send(nodes, HttpResponse.BodyHandlers.ofString()).body();
    JsonObject local = new JsonObject(body).getJsonObject("local_workers");
    return local == null ? new JsonArray() : local.getJsonArray("workers");
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
