package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.LocalWorkerStatus;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.OwnCluster;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DuckDB runs in worker processes the node supervises: a query that blows up memory, or a worker killed
 * under a query, costs only that query a clear error; the node, its other worker and other conversations
 * go on, and the dead worker comes back.
 */
class WorkerProcessTest {

  /** Generous for a loaded machine; the benchmark measures how long a restart really takes. */
  static final long RESTART_WAIT_S = 60;

  @TempDir
  Path dir;

  ChatHarness chat;
  EventRecorder events;

  private void start(Map<String, String> env) {
    Map<String, String> withSparseCopies = new java.util.HashMap<>(env);
    // Adding a file opens it on a worker; fetched column by column, a small file's query then still has a download
    // to hold (fetched whole, it would have come at the add).
    withSparseCopies.putIfAbsent("QUARRY_WORKER_WHOLE_FILE_BELOW_BYTES", "0");
    // Started as queries need them, as by default (test nodes otherwise keep one warm).
    withSparseCopies.putIfAbsent("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    chat = new ChatHarness(dir, withSparseCopies);
    events = EventRecorder.local(chat.node, Addresses.WORKER_LOCAL_EVENTS);
  }

  @AfterEach
  void stop() {
    if (chat != null) {
      chat.close();
    }
  }

  private HttpResponse<Buffer> query(String conversation, String sql) {
    return querying(conversation, sql).await();
  }

  private Future<HttpResponse<Buffer>> querying(String conversation, String sql) {
    return chat.client.post("/api/conversations/" + conversation + "/query").sendJsonObject(new JsonObject().put("sql", sql));
  }

  private void assertPeopleCount(String conversation) {
    HttpResponse<Buffer> answer = query(conversation, "SELECT count(name) AS n FROM table1");
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    assertThat(answer.bodyAsJsonObject().getJsonArray("rows")).isEqualTo(new JsonArray().add(new JsonArray().add(100)));
  }

  private JsonArray workers() {
    JsonObject health = chat.send(HttpMethod.GET, "/api/health/nodes", null).bodyAsJsonObject();
    return health.getJsonObject("local_workers").getJsonArray("workers");
  }

  private JsonObject worker(String name) {
    return workers().stream().map(JsonObject.class::cast).filter(w -> w.getString("name").equals(name)).findFirst()
        .orElseThrow();
  }

  /** The next lifecycle event of the node's worker processes that matches, within the restart wait. */
  private LocalWorkerStatus awaitEvent(Predicate<LocalWorkerStatus> wanted) throws InterruptedException {
    return LocalWorkerStatus.fromJson(events.next(e -> wanted.test(LocalWorkerStatus.fromJson(e)), RESTART_WAIT_S));
  }

  private LocalWorkerStatus awaitReady(String worker) throws InterruptedException {
    return awaitEvent(e -> e.name().equals(worker) && e.state().equals("ready"));
  }

  /** The worker ready again after it died (not its first start, whose event may still be unread). */
  private LocalWorkerStatus awaitBack(String worker) throws InterruptedException {
    return awaitEvent(e -> e.name().equals(worker) && e.state().equals("ready") && e.restarts() > 0);
  }

  /** A conversation with people.parquet, and a query of another conversation held on a worker mid-download. */
  private record Held(String other, Future<HttpResponse<Buffer>> running, JsonObject worker,
      ParquetServer.Held downloads) {
  }

  private Held queryHeldOnAWorker() {
    String other = chat.conversation();
    chat.addDataset(other, "/people.parquet");
    String victim = chat.conversation();
    // Larger than the tail the add reads (which its worker's copy starts from): the name column must be downloaded.
    chat.files.route("/held.parquet").content(ParquetFixtures.write(dir.resolve("held.parquet"),
        "SELECT i AS id, md5(i::VARCHAR) AS name FROM range(20000) t(i)"));
    chat.addDataset(victim, "/held.parquet");
    ParquetServer.Held downloads = chat.files.route("/held.parquet").holdRangeRequests();
    Future<HttpResponse<Buffer>> running = querying(victim, "SELECT count(name) FROM table1");
    downloads.arrived().await();
    JsonObject busy = workers().stream().map(JsonObject.class::cast).filter(w -> w.getInteger("in_flight") == 1)
        .findFirst().orElseThrow();
    return new Held(other, running, busy, downloads);
  }

  /** Both worker processes started with the node, and ready. */
  private void startWarm(Map<String, String> env) throws InterruptedException {
    Map<String, String> warm = new java.util.HashMap<>(env);
    warm.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "2");
    start(warm);
  }

  @Test
  @DisplayName("the default node is ready with no worker process: the first query starts one, under the operating "
      + "system's memory cap, not the node itself; the second waits until the first is busy")
  void onDemand() {
    // The warm-up on, as by default (test nodes skip it), so that which processes warm up is this test's to see.
    start(Map.of("QUARRY_WORKER_WARM_UP", "true"));
    assertThat(workers()).hasSize(2).allSatisfy(w -> {
      assertThat(((JsonObject) w).getString("state")).isEqualTo("idle");
      assertThat(((JsonObject) w).getValue("pid")).isNull();
    });
    assertThat(chat.send(HttpMethod.GET, "/api/health/ready", null).statusCode()).isEqualTo(200);

    assertThat(query(chat.conversation(), "SELECT 42 AS answer").bodyAsJsonObject().getJsonArray("rows"))
        .isEqualTo(new JsonArray().add(new JsonArray().add(42)));

    JsonObject first = worker("worker-1");
    assertThat(first.getString("state")).isEqualTo("ready");
    assertThat(first.getLong("pid")).isNotEqualTo(ProcessHandle.current().pid());
    assertThat(ProcessHandle.of(first.getLong("pid"))).hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());
    assertThat(first.getLong("memory_cap_bytes")).isEqualTo(3072L << 20);
    // HotSpot writes a JVM's performance data under /tmp whatever java.io.tmpdir says; a worker keeps none.
    assertThat(Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), String.valueOf(first.getLong("pid"))))
        .as("worker-1's performance-data file").doesNotExist();
    assertThat(first.getInteger("restarts")).isZero();
    assertThat(worker("worker-2").getString("state")).isEqualTo("idle");
    assertThat(warmsUp(1)).as("started for a waiting query, which is its warm-up").isFalse();
    assertThat(warmsUp(2)).isFalse();
  }

  /** Whether worker process {@code slot} runs the warm-up before it is ready, as its configuration file says. */
  private boolean warmsUp(int slot) {
    try {
      return new JsonObject(Files.readString(dir.resolve("workers").resolve("worker-" + slot + ".json")))
          .getJsonObject("worker").getBoolean("warmUp");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @DisplayName("while every running worker is busy the next one starts, and the queries spread over both")
  void growsWhenBusy() throws InterruptedException {
    start(Map.of("QUARRY_WORKER_THREADS", "1"));
    Held held = queryHeldOnAWorker();
    LocalWorkerStatus second = awaitEvent(e -> e.state().equals("ready") && !e.name().equals(
        held.worker().getString("name")));
    assertThat(second.pid()).isNotEqualTo(held.worker().getLong("pid"));
    assertPeopleCount(held.other());
    held.downloads().release();
    assertThat(held.running().await().statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("a worker idle for localWorkers.idleStopMs stops, and the next query starts it again")
  void stopsWhenIdle() throws InterruptedException {
    start(Map.of("QUARRY_LOCAL_WORKERS_IDLE_STOP_MS", "300"));
    String conversation = chat.conversation();
    chat.addDataset(conversation, "/people.parquet");
    long pid = awaitReady("worker-1").pid();
    LocalWorkerStatus idle = awaitEvent(e -> e.name().equals("worker-1") && e.state().equals("idle"));
    assertThat(idle.pid()).isNull();
    assertThat(idle.restarts()).as("an idle stop is not a death").isZero();
    ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(RESTART_WAIT_S, TimeUnit.SECONDS).join());
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).as("worker-1's process").isNotEqualTo(
        java.util.Optional.of(true));

    assertPeopleCount(conversation);
    assertThat(worker("worker-1").getLong("pid")).isNotEqualTo(pid);
  }

  @Test
  @DisplayName("one conversation's queries go to one worker process, so its files are downloaded once, not once per worker")
  void affinity() {
    start(Map.of());
    String conversation = chat.conversation();
    chat.addDataset(conversation, "/people.parquet");
    assertPeopleCount(conversation);
    long fetched = chat.files.route("/people.parquet").bodyBytes();
    for (int i = 0; i < 5; i++) {
      assertPeopleCount(conversation);
    }
    assertThat(chat.files.route("/people.parquet").bodyBytes()).isEqualTo(fetched);
  }

  @Test
  @DisplayName("the memory bomb fails only its own query with the memory message; the server and another conversation keep working")
  void memoryBomb() {
    start(Map.of());
    String bomb = chat.conversation();
    String other = chat.conversation();
    chat.addDataset(other, "/people.parquet");
    assertPeopleCount(other);

    Future<HttpResponse<Buffer>> exploding = querying(bomb, "SELECT unnest(generate_series(1, 2000000000))");
    assertPeopleCount(other);
    HttpResponse<Buffer> failed = exploding.await();

    assertError(failed, 400, WorkerClient.OUT_OF_MEMORY);
    assertThat(failed.bodyAsJsonObject().getString("error_type")).isEqualTo("sql");
    assertPeopleCount(other);
    assertThat(query(bomb, "SELECT 42 AS answer").bodyAsJsonObject().getJsonArray("rows").getJsonArray(0).getInteger(0))
        .isEqualTo(42);
    assertThat(chat.send(HttpMethod.GET, "/api/health", null).statusCode()).isEqualTo(200);
  }

  @Test
  @DisplayName("a worker whose Java heap runs out ends; its caller hears 'The query used too much memory and was stopped' and the worker comes back")
  void heapExhausted() throws InterruptedException {
    start(Map.of("QUARRY_LOCAL_WORKERS_HEAP_MB", "128"));
    String other = chat.conversation();
    chat.addDataset(other, "/people.parquet");
    String hungry = chat.conversation();

    HttpResponse<Buffer> failed = query(hungry, "SELECT repeat('x', 100000000) AS s FROM range(2)");

    assertError(failed, 400, WorkerClient.OUT_OF_MEMORY);
    LocalWorkerStatus died = awaitEvent(e -> e.state().equals("restarting"));
    assertThat(died.lastExitCause()).startsWith("out of memory, exit status 3");
    assertPeopleCount(other);
    LocalWorkerStatus back = awaitBack(died.name());
    assertThat(back.restarts()).isEqualTo(1);
    assertPeopleCount(other);
  }

  @Test
  @DisplayName("SIGKILL of a worker during a query: the query runs again on the other worker and answers, another "
      + "conversation keeps working, the worker comes back")
  void killed() throws InterruptedException, IOException {
    startWarm(Map.of());
    Held held = queryHeldOnAWorker();
    String other = held.other();
    JsonObject busy = held.worker();
    assertPeopleCount(other);
    Map<Path, List<Path>> temps = workerTemps().stream().collect(Collectors.toMap(t -> t, WorkerProcessTest::duckdbLibraries));
    assertThat(temps).hasSize(2);
    assertThat(temps.values()).as("DuckDB's library unpacked in each worker's own directory, deleted once loaded")
        .allSatisfy(libraries -> assertThat(libraries).isEmpty());
    ProcessHandle.of(busy.getLong("pid")).orElseThrow().destroyForcibly();

    held.downloads().arrived(2).await(); // the same query, on the other worker
    held.downloads().release();
    HttpResponse<Buffer> answer = held.running().await();
    assertThat(answer.statusCode()).as(answer.bodyAsString()).isEqualTo(200);
    assertThat(answer.bodyAsJsonObject().getJsonArray("rows"))
        .isEqualTo(new JsonArray().add(new JsonArray().add(20_000)));
    assertPeopleCount(other);
    LocalWorkerStatus back = awaitBack(busy.getString("name"));
    assertThat(back.restarts()).isEqualTo(1);
    assertThat(back.pid()).isNotEqualTo(busy.getLong("pid"));
    assertThat(back.lastExitCause()).startsWith("killed by signal 9");
    assertThat(worker(busy.getString("name")).getString("state")).isEqualTo("ready");
    assertPeopleCount(other);
    // What the killed process could not delete itself went with its directory.
    Set<Path> now = workerTemps();
    assertThat(now).hasSize(2);
    assertThat(temps.keySet().stream().filter(t -> !now.contains(t))).singleElement()
        .satisfies(gone -> assertThat(gone).doesNotExist());
  }

  @Test
  @DisplayName("a query whose worker is SIGKILLed, and then the worker it ran again on too, answers 'The query "
      + "worker stopped unexpectedly'")
  void killedTwice() throws InterruptedException {
    startWarm(Map.of());
    Held held = queryHeldOnAWorker();
    long firstPid = held.worker().getLong("pid");
    ProcessHandle.of(firstPid).orElseThrow().destroyForcibly();
    held.downloads().arrived(2).await();
    JsonObject second = workers().stream().map(JsonObject.class::cast)
        .filter(w -> w.getInteger("in_flight") == 1 && w.getLong("pid") != firstPid).findFirst().orElseThrow();
    ProcessHandle.of(second.getLong("pid")).orElseThrow().destroyForcibly();

    assertError(held.running().await(), 500, WorkerClient.STOPPED);
    held.downloads().release();
  }

  /** Each worker process's temporary directory, where the DuckDB driver unpacks its native library. */
  private Set<Path> workerTemps() throws IOException {
    try (Stream<Path> temps = Files.list(dir.resolve("workers").resolve("tmp"))) {
      return temps.collect(Collectors.toSet());
    }
  }

  private static List<Path> duckdbLibraries(Path temp) {
    try (Stream<Path> files = Files.list(temp)) {
      return files.filter(f -> f.getFileName().toString().startsWith("libduckdb_java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @DisplayName("a frozen worker (SIGSTOP) is killed soon after its query's limit: the caller gets the timeout message, the worker comes back")
  void frozen() throws Exception {
    // Short, but long enough for the conversations' datasets to load on a busy machine first (1 s once was not).
    startWarm(Map.of("QUARRY_QUERY_TIMEOUT_MS", "3000"));
    Held held = queryHeldOnAWorker();
    JsonObject busy = held.worker();
    // The shell's own kill: no procps package needed on a fresh machine.
    Process stop = new ProcessBuilder("/bin/sh", "-c", "kill -STOP " + busy.getLong("pid")).start();
    assertThat(stop.waitFor()).isZero();

    HttpResponse<Buffer> timedOut = held.running().await();
    assertThat(timedOut.statusCode()).as(timedOut.bodyAsString()).isEqualTo(504);
    // The caller hears its limit: from the frozen worker's pool, or from the other worker, where the query was sent
    // again when the cluster saw the frozen one go silent, and where its download was held too.
    assertThat(timedOut.bodyAsJsonObject().getString("error")).isIn("Query timed out after 3 s and was cancelled",
        "Query timed out after 3 s while the data was still downloading and was cancelled");
    LocalWorkerStatus back = awaitBack(busy.getString("name"));
    assertThat(back.restarts()).isEqualTo(1);
    assertThat(back.lastExitCause()).startsWith("killed by signal 9");
    assertPeopleCount(held.other());
  }

  @Test
  @DisplayName("localWorkers.keepWarm processes start with the node, each under the memory cap, and stop when it stops")
  void stopsWithTheNode() throws InterruptedException {
    startWarm(Map.of("QUARRY_WORKER_WARM_UP", "true"));
    assertThat(workers()).hasSize(2).allSatisfy(w -> {
      assertThat(((JsonObject) w).getLong("pid")).isNotEqualTo(ProcessHandle.current().pid());
      assertThat(((JsonObject) w).getLong("memory_cap_bytes")).isEqualTo(3072L << 20);
    });
    assertThat(warmsUp(1)).as("kept warm, started with the node").isTrue();
    assertThat(warmsUp(2)).isTrue();
    List<Long> pids = workers().stream().map(w -> ((JsonObject) w).getLong("pid")).toList();
    chat.close();
    chat = null;
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("worker %d", pid).isFalse();
    }
  }

  @Test
  @DisplayName("a clustered node with every role runs its worker processes as members of its cluster (the one its "
      + "query started)")
  void clustered() {
    chat = new ChatHarness(dir, OwnCluster.env("quarry-test-"), "--cluster");
    String conversation = chat.conversation();
    chat.addDataset(conversation, "/people.parquet");
    assertPeopleCount(conversation);
    JsonObject health = chat.send(HttpMethod.GET, "/api/health/nodes", null).bodyAsJsonObject();
    assertThat(health.getJsonObject("local_workers").getJsonArray("workers")).hasSize(2);
    assertThat(health.getJsonObject("local_workers").getInteger("waiting")).as("queries held for a free worker")
        .isZero();
    assertThat(health.getJsonArray("cluster_members").stream().map(m -> ((JsonObject) m).getJsonArray("roles")))
        .containsExactlyInAnyOrder(new JsonArray().add("worker"),
            new JsonArray(List.of("storage", "worker", "dataset", "llm", "web")));
  }

  @Test
  @DisplayName("with --local-workers 0 the node runs no SQL itself: queries, and adding a file (which the engine must"
      + " open first), answer 503 'No query worker available'")
  void noLocalWorkers() {
    chat = new ChatHarness(dir, Map.of("QUARRY_LOCAL_WORKERS", "0"));
    String conversation = chat.conversation();
    assertError(chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets",
        new JsonObject().put("url", chat.files.url("/people.parquet"))), 503, "No query worker available");
    assertError(query(conversation, "SELECT 1"), 503, "No query worker available");
    JsonObject health = chat.send(HttpMethod.GET, "/api/health/nodes", null).bodyAsJsonObject();
    assertThat(health.getValue("local_workers")).isNull();
    assertThat(health.getJsonArray("roles")).doesNotContain("worker");
  }
}
