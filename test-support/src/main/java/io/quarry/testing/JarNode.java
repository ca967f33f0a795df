package io.quarry.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A node started from the built jar in a JVM of its own, as an operator runs it (failsafe tests). Its
 * output goes to a log file, read on the way, so that a test waits for the node's own "started" line —
 * an event — instead of polling it.
 */
public final class JarNode {

  public final Process process;
  private final CompletableFuture<Void> started = new CompletableFuture<>();
  /** Completes once the node's output has ended: every line it printed has been read. */
  private final CompletableFuture<Void> ended = new CompletableFuture<>();
  /** Every line the node printed so far, in order. */
  private final java.util.List<String> printed = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final java.util.List<Waiter> waiters = new java.util.concurrent.CopyOnWriteArrayList<>();

  private record Waiter(String text, CompletableFuture<String> heard) {
  }

  private JarNode(Process process, Path log) {
    this.process = process;
    Thread reader = new Thread(() -> copy(log), "jar-node-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * The jar the build made (failsafe's {@code quarry.jar} property). {@code env}: QUARRY_* settings; {@code args}: the
   * command line after {@code -jar quarry.jar}. Its JVM compiles with C1 only and collects with the serial collector,
   * and maps the class archive the jar's {@code class-archive} command wrote ({@link NodeClassArchive}); its worker
   * processes share one of their own: a test runs up to nine nodes on two cores, and what it checks is the jar's
   * behaviour, not its JIT's or its class loading.
   */
  public static JarNode launch(Path log, Map<String, String> env, String... args) throws IOException {
    return launch(log, List.of(), env, args);
  }

  /** As {@link #launch(Path, Map, String...)}, with more options for its JVM (an operator's {@code -D} settings). */
  public static JarNode launch(Path log, List<String> jvmOptions, Map<String, String> env, String... args)
      throws IOException {
    Path jar = Path.of(System.getProperty("quarry.jar"));
    List<String> options = new java.util.ArrayList<>(List.of("-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-XX:SharedArchiveFile=" + NodeClassArchive.of(jar)));
    options.addAll(jvmOptions);
    // Their worker processes share one archive too, written by the first of the run to stop (a node's own, in its data
    // directory, is WorkerProcessIT.classArchiveKept's, which says so).
    Map<String, String> all = new java.util.HashMap<>(env);
    all.putIfAbsent("QUARRY_LOCAL_WORKERS_CLASS_ARCHIVE_DIR", jar.resolveSibling("worker-class-archive").toString());
    return launchAsGiven(jar, options, log, all, args);
  }

  /** As an operator starts it (a benchmark's node): only its heap bounded. */
  public static JarNode launch(Path jar, Path log, Map<String, String> env, String... args) throws IOException {
    return launchAsGiven(jar, List.of("-Xmx512m"), log, env, args);
  }

  /** With the JVM options an operator's command line gives, and none of the tests' (collector, heap, JIT). */
  public static JarNode launchAsGiven(Path jar, List<String> jvmOptions, Path log, Map<String, String> env,
      String... args) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(JarCommand.of(jar, jvmOptions, args)).redirectErrorStream(true);
    builder.environment().putAll(env);
    // Several nodes run on one machine: each serves metrics only where a test asks for it, on a port of its own.
    builder.environment().putIfAbsent("QUARRY_METRICS_PORT", "0");
    return new JarNode(builder.start(), log);
  }

  /** Waits for the node's own start line (its worker processes' lines are prefixed "worker-N |"). */
  public void awaitStarted(long seconds) throws Exception {
    started.get(seconds, TimeUnit.SECONDS);
  }

  /** Waits for the first line the node prints (or printed) that contains {@code text}, and answers it. */
  public String awaitLine(String text, long seconds) throws Exception {
    CompletableFuture<String> heard = new CompletableFuture<>();
    waiters.add(new Waiter(text, heard));
    printed.stream().filter(l -> l.contains(text)).findFirst().ifPresent(heard::complete);
    return heard.get(seconds, TimeUnit.SECONDS);
  }

  /**
   * Waits for the node's first worker process to be ready: for a test whose node keeps one warm
   * ({@code QUARRY_LOCAL_WORKERS_KEEP_WARM}) and whose first query or add is not about a worker's start, which beside
   * the other suites' nodes has taken longer than an add waits for a worker (the schema limit and 10 s).
   */
  public void awaitWorkerReady(long seconds) throws Exception {
    awaitLine("worker-1 ready: pid", seconds);
  }

  /** Waits for the node to end and for every line it printed to be read. */
  public void awaitEnded(long seconds) throws Exception {
    ended.get(seconds, TimeUnit.SECONDS);
    process.waitFor(seconds, TimeUnit.SECONDS);
  }

  /** Every line the node printed so far. */
  public java.util.List<String> lines() {
    return java.util.List.copyOf(printed);
  }

  /**
   * SIGTERM, as an operator or an orchestrator stops it. Through its handle: {@code Process.destroy()} also closes
   * the pipe the node writes its output to, and what it says while it stops would be lost.
   */
  public void terminate() {
    process.toHandle().destroy();
  }

  /** Kills the node and every process it started. */
  public void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private void copy(Path log) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
         PrintWriter out = new PrintWriter(Files.newBufferedWriter(log), true)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        out.println(line);
        printed.add(line);
        for (Waiter w : waiters) {
          if (line.contains(w.text())) {
            w.heard().complete(line);
          }
        }
        // A worker process says it started too: as "worker-N | …", or in JSON with its "worker" field.
        if (!line.startsWith("worker-") && !line.contains("\"worker\":\"") && line.contains("started with roles")) {
          started.complete(null);
        }
      }
      started.completeExceptionally(new AssertionError("the node ended before it started; its log: " + log));
      ended.complete(null);
    } catch (IOException e) {
      started.completeExceptionally(e);
    }
  }
}
