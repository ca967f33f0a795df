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

  private JarNode(Process process, Path log) {
    this.process = process;
    Thread reader = new Thread(() -> copy(log), "jar-node-output");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * The jar the build made (failsafe's {@code quarry.jar} property). {@code env}: QUARRY_* settings; {@code args}: the
   * command line after {@code -jar quarry.jar}.
   */
  public static JarNode launch(Path log, Map<String, String> env, String... args) throws IOException {
    return launch(Path.of(System.getProperty("quarry.jar")), log, env, args);
  }

  public static JarNode launch(Path jar, Path log, Map<String, String> env, String... args) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(JarCommand.of(jar, List.of("-Xmx512m"), args)).redirectErrorStream(true);
    builder.environment().putAll(env);
    // Several nodes run on one machine: each serves metrics only where a test asks for it, on a port of its own.
    builder.environment().putIfAbsent("QUARRY_METRICS_PORT", "0");
    return new JarNode(builder.start(), log);
  }

  /** Waits for the node's own start line (its worker processes' lines are prefixed "worker-N |"). */
  public void awaitStarted(long seconds) throws Exception {
    started.get(seconds, TimeUnit.SECONDS);
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
        if (!line.startsWith("worker-") && line.contains("started with roles")) {
          started.complete(null);
        }
      }
      started.completeExceptionally(new AssertionError("the node ended before it started; its log: " + log));
    } catch (IOException e) {
      started.completeExceptionally(e);
    }
  }
}
