package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The built jar in its default mode, as an operator runs it: its worker processes live and die with it. */
class WorkerProcessIT {

  @TempDir
  Path dir;

  /** A worker process ends within this of its node's death, however far it got in starting. */
  static final long ORPHAN_LIMIT_NS = TimeUnit.SECONDS.toNanos(2);

  final Vertx vertx = Vertx.vertx();
  JarNode node;
  /** Worker processes of a node a test kills: no longer its descendants, so that kill() would not reach them. */
  List<ProcessHandle> orphans = List.of();

  @AfterEach
  void stop() {
    if (node != null) {
      node.kill();
    }
    orphans.forEach(ProcessHandle::destroyForcibly);
    vertx.close().await();
  }

  @Test
  @DisplayName("java -jar quarry.jar starts two capped worker processes (kept warm), which get none of its keys, passwords or tokens;"
      + " killing the node with SIGKILL takes them down within 2 s, leaving neither their temporary files nor a"
      + " half-written class archive")
  void workersFollowTheirNode() throws Exception {
    int port = JarCommand.freePort();
    Map<String, String> env = new java.util.HashMap<>(SECRETS);
    env.putAll(Map.of("QUARRY_HTTP_PORT", String.valueOf(port), "QUARRY_DATA_DIR", dir.resolve("data").toString(),
        "TZ", "UTC", "LANG", "C.UTF-8", "QUARRY_LOG_LEVEL", "INFO", "QUARRY_LOCAL_WORKERS_KEEP_WARM", "2"));
    node = JarNode.launch(dir.resolve("node.log"), List.of("-Dsome.db.password=hunter2",
        "-Djavax.net.ssl.keyStorePassword=changeit", "-Dquarry.test.setting=kept"), env,
        "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);

    JsonArray workers = awaitReadyWorkers(port, 2);
    assertThat(workers).hasSize(2);
    List<ProcessHandle> children = workers.stream()
        .map(w -> ProcessHandle.of(((JsonObject) w).getLong("pid")).orElseThrow()).toList();
    for (ProcessHandle child : children) {
      assertThat(child.parent().map(ProcessHandle::pid)).hasValue(node.process.pid());
      assertThat(child.info().commandLine().orElse("")).contains("--roles worker");
      assertOnlyWhatAWorkerNeeds(child.pid());
    }
    assertThat(workers.getJsonObject(0).getLong("memory_cap_bytes")).isEqualTo(3072L << 20);

    orphans = children;
    long killed = System.nanoTime();
    node.process.destroyForcibly();
    for (ProcessHandle child : children) {
      assertThat(endedBy(child, killed + ORPHAN_LIMIT_NS)).as("worker %d ended within 2 s of its node", child.pid())
          .isTrue();
    }
    // What a worker's JVM would write as it exits (the class archive), nobody would keep: it is not written at all.
    assertThat(archives(dir.resolve("data"))).isEmpty();
    try (var left = Files.list(dir.resolve("data").resolve("workers").resolve("tmp"))) {
      assertThat(left).as("the workers' temporary files (DuckDB's 70 MB library each)").isEmpty();
    }
  }

  /** How far a node's worker processes got in starting when the node is killed. */
  enum Moment {
    /** Both exist and are JVMs, starting (Java's library mapped); the node wrote them its key as it started them. */
    JVMS_STARTING,
    /** One is unpacking DuckDB's native library: it has joined the node's cluster, and loads DuckDB, then warms up. */
    DUCKDB_LOADING
  }

  @ParameterizedTest
  @EnumSource(Moment.class)
  @DisplayName("a node killed with SIGKILL while its worker processes start takes them down within 2 s")
  void workersFollowANodeKilledWhileTheyStart(Moment moment) throws Exception {
    Path data = dir.resolve("data");
    node = JarNode.launch(dir.resolve("node.log"), Map.of("QUARRY_HTTP_PORT", String.valueOf(JarCommand.freePort()),
        "QUARRY_DATA_DIR", data.toString(), "QUARRY_LOCAL_WORKERS_KEEP_WARM", "2"), "--config",
        dir.resolve("absent.json").toString());
    List<ProcessHandle> workers = await(() -> workers(node), found -> found.size() == 2);
    orphans = workers;
    await(() -> workers, found -> found.stream().allMatch(WorkerProcessIT::jvm));
    if (moment == Moment.DUCKDB_LOADING) {
      await(() -> duckDbLibraries(data), found -> !found.isEmpty());
    }
    assertThat(node.lines()).as("its workers are still starting").noneMatch(l -> l.contains(" ready: pid "));

    long killed = System.nanoTime();
    node.process.destroyForcibly();
    for (ProcessHandle worker : workers) {
      assertThat(endedBy(worker, killed + ORPHAN_LIMIT_NS)).as("worker %d ended within 2 s of its node", worker.pid())
          .isTrue();
    }
  }

  /** The node's worker processes, once {@code count} of them are ready (kept warm, they start with the node). */
  private JsonArray awaitReadyWorkers(int port, int count) throws Exception {
    WebClient client = WebClient.create(vertx);
    return await(() -> client.get(port, "127.0.0.1", "/api/health/nodes").send().await().bodyAsJsonObject()
        .getJsonObject("local_workers").getJsonArray("workers"), workers -> workers.stream()
        .filter(w -> ((JsonObject) w).getString("state").equals("ready")).count() == count);
  }

  /** The worker processes a node started so far (a shell that becomes the worker's JVM counts as one). */
  private static List<ProcessHandle> workers(JarNode node) {
    return node.process.descendants().filter(p -> p.info().commandLine().orElse("").contains("--roles worker"))
        .toList();
  }

  /** Whether a process is a JVM (the shell a worker starts in has become one): it has mapped Java's library. */
  private static boolean jvm(ProcessHandle process) {
    try {
      return Files.readString(Path.of("/proc", String.valueOf(process.pid()), "maps")).contains("/libjvm.so");
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }

  /** DuckDB's native library, as a worker's driver unpacks it into the worker's own temporary directory. */
  private static List<Path> duckDbLibraries(Path data) throws IOException {
    Path temp = data.resolve("workers").resolve("tmp");
    if (!Files.isDirectory(temp)) {
      return List.of();
    }
    try (var files = Files.walk(temp)) {
      return files.filter(f -> f.getFileName().toString().startsWith("libduckdb")).toList();
    }
  }

  private interface Probe<T> {
    T get() throws IOException;
  }

  /**
   * Looks every 25 ms, for up to 2 minutes, until {@code done}: nothing tells a test that a process started, or that a
   * file appeared in a directory made meanwhile (a shorter period would take CPU from the node it watches).
   */
  private <T> T await(Probe<T> probe, Predicate<T> done) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    for (T value = probe.get(); ; value = probe.get()) {
      if (done.test(value)) {
        return value;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Waited 2 minutes; the node's log: " + node.lines());
      }
      Thread.sleep(25);
    }
  }

  @Test
  @DisplayName("a node stopped with SIGTERM leaves its workers' class archive in place, and the next start's workers map"
      + " it; no half-written archive is left behind")
  void classArchiveKept() throws Exception {
    Path data = dir.resolve("data");
    int port = JarCommand.freePort();
    Map<String, String> env = Map.of("QUARRY_HTTP_PORT", String.valueOf(port), "QUARRY_DATA_DIR", data.toString(),
        "QUARRY_LOCAL_WORKERS", "1", "QUARRY_LOCAL_WORKERS_KEEP_WARM", "1", "QUARRY_LOCAL_WORKERS_CLASS_ARCHIVE_DIR", "");
    node = JarNode.launch(dir.resolve("first.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    awaitReadyWorkers(port, 1);
    node.terminate();
    node.awaitEnded(60);
    assertThat(archives(data)).singleElement().satisfies(a -> assertThat(a.getFileName().toString()).endsWith(".jsa"));

    node = JarNode.launch(dir.resolve("second.log"), env, "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    List<String> workers = node.process.descendants().map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains("--roles worker")).toList();
    assertThat(workers).singleElement().asString().contains("-XX:SharedArchiveFile=" + archives(data).get(0));
  }

  /** What an operator may have in a node's environment that its worker processes, which run users' SQL, must not get. */
  private static final Map<String, String> SECRETS = Map.of("OPENAI_API_KEY", "sk-test-openai", "GEMINI_API_KEY",
      "test-gemini", "SOME_DB_PASSWORD", "hunter2", "MY_TOKEN", "t0ken", "AWS_SECRET_ACCESS_KEY", "aws-secret");

  /** As the operating system holds them: the worker's environment and command line, read in /proc. */
  private static void assertOnlyWhatAWorkerNeeds(long pid) throws IOException {
    Map<String, String> environment = new java.util.HashMap<>();
    for (String entry : Files.readString(Path.of("/proc/" + pid + "/environ")).split("\0")) {
      int equals = entry.indexOf('=');
      if (equals > 0) {
        environment.put(entry.substring(0, equals), entry.substring(equals + 1));
      }
    }
    assertThat(environment).doesNotContainKeys(SECRETS.keySet().toArray(String[]::new))
        .containsKey("PATH").contains(Map.entry("TZ", "UTC"), Map.entry("LANG", "C.UTF-8"),
            Map.entry("QUARRY_LOG_LEVEL", "INFO"), Map.entry("MALLOC_ARENA_MAX", "2"));
    assertThat(String.join("\n", environment.values())).doesNotContain(SECRETS.values().toArray(String[]::new));
    String commandLine = Files.readString(Path.of("/proc/" + pid + "/cmdline")).replace('\0', ' ');
    assertThat(commandLine).contains("-Dquarry.test.setting=kept").doesNotContain("hunter2", "changeit");
  }

  /**
   * Whether a process has ended by the deadline ({@code System.nanoTime()}), looking every 10 ms: the JDK hears of a
   * process that is not this one's child only by polling too, every 300 ms and more, too coarse for a 2 s limit. A
   * zombie has ended (it holds no memory and runs nothing): the orphan of a killed node waits as one until the
   * system's init reaps it, which took up to 1.4 s more on the machine these tests were written on.
   */
  private static boolean endedBy(ProcessHandle process, long deadline) throws InterruptedException {
    while (process.isAlive() && !zombie(process.pid())) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  /** Linux's state of a process ({@code /proc/PID/stat}, after the command name in parentheses) is Z. */
  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
    } catch (IOException | RuntimeException gone) {
      return false;
    }
  }

  /** The class archives (and archives being written) in a node's data directory. */
  private static List<Path> archives(Path data) throws IOException {
    try (var files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains(".jsa")).toList();
    }
  }
}
