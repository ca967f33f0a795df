package io.quarry.app;

import io.quarry.bus.PrivateFiles;
import io.vertx.core.Future;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code java -jar quarry.jar class-archive FILE}: writes a class-data-sharing archive of the classes a node loads
 * as it starts, with which {@code java -XX:SharedArchiveFile=FILE -jar quarry.jar} is ready in about half the time
 * (most of a start is loading and verifying some 9,000 classes). Java 17 writes such an archive only as a JVM started
 * with {@code -XX:ArchiveClassesAtExit} ends, so this starts a node of the built-in defaults in a JVM of its own (in a
 * temporary data directory, on ports of its own, with none of this environment), stops it once it has started, and
 * puts the archive in place only when complete. The archive fits this jar and this Java only: the JVM ignores it
 * (and says so) after either changes, and the node then starts as without it.
 */
final class ClassArchiveCommand {

  static final String USAGE = "usage: java -jar quarry.jar class-archive FILE";
  private static final long START_LIMIT_S = 120;
  private static final long STOP_LIMIT_S = 120;
  /** The node's last lines, to say why it did not start. */
  private static final int KEPT_LINES = 20;
  /** Starts of the training node whose metrics port another program took first, at most. */
  private static final int STARTS = 3;
  /**
   * The settings that decide how objects are laid out, which an archive holds: a JVM whose differ (ZGC has no
   * compressed pointers, G1 has them below 32 GB of heap) cannot map it and starts without it.
   */
  private static final Pattern LAYOUT = Pattern.compile(
      "-XX:[+-](Use\\w+GC|UseCompressedOops|UseCompressedClassPointers)|-Xmx\\S+|-XX:Max(RAM|RAMPercentage)=\\S+");
  /** What the node keeps of this environment: what the JVM and the C library read. */
  private static final Set<String> KEPT_VARIABLES = Set.of("PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR");

  private ClassArchiveCommand() {
  }

  static Future<String> run(String... argv) {
    if (argv.length != 2) {
      return Future.failedFuture(new IllegalArgumentException(USAGE));
    }
    try {
      Path jar = ownJar();
      Path archive = Path.of(argv[1]).toAbsolutePath();
      write(jar, archive);
      return Future.succeededFuture(String.format("Wrote %s (%d MB). Start Quarry with it: java %s"
          + "-XX:SharedArchiveFile=%s -jar %s", archive, Files.size(archive) >> 20,
          layout().stream().map(option -> option + " ").collect(Collectors.joining()), archive, jar));
    } catch (IOException | RuntimeException e) {
      return Future.failedFuture(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Future.failedFuture(e);
    }
  }

  /** This JVM's settings that an archive must be used with ({@link #LAYOUT}). */
  private static List<String> layout() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> LAYOUT.matcher(a).matches()).toList();
  }

  /** The runnable jar these classes came from: not class directories, nor the app module's own jar (no Main-Class). */
  private static Path ownJar() throws IOException {
    var source = Main.class.getProtectionDomain().getCodeSource();
    String location = source == null ? "" : source.getLocation().getPath();
    if (!location.endsWith(".jar") || !runnable(Path.of(location))) {
      throw new IllegalStateException("it is written from Quarry's jar (" + USAGE + ")");
    }
    return Path.of(location).toAbsolutePath();
  }

  private static boolean runnable(Path jar) throws IOException {
    try (JarFile file = new JarFile(jar.toFile())) {
      Manifest manifest = file.getManifest();
      return manifest != null
          && Main.class.getName().equals(manifest.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
    }
  }

  private static void write(Path jar, Path archive) throws IOException, InterruptedException {
    Path parent = archive.getParent();
    if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
      throw new IllegalArgumentException("cannot write to the directory " + parent);
    }
    Path pending = parent.resolve(archive.getFileName() + ".pending");
    Path home = Files.createTempDirectory("quarry-class-archive");
    try {
      train(jar, pending, home);
      if (!Files.isRegularFile(pending) || Files.size(pending) == 0) {
        throw new IllegalStateException("the JVM wrote no archive (it writes one only on Java 13 or later, from a jar)");
      }
      Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(pending);
      delete(home);
    }
  }

  /** Starts a node that writes the archive as it ends, waits for its start line, and stops it as SIGTERM does. */
  /**
   * Trains until a node starts, again on another port when the one it was given for metrics was taken by another
   * program's connection before the node bound it (a port found free is only free when asked).
   */
  private static void train(Path jar, Path pending, Path home) throws IOException, InterruptedException {
    for (int start = 1; ; start++) {
      List<String> notStarted = trainOnce(jar, pending, home);
      if (notStarted == null) {
        return;
      }
      if (start == STARTS || !metricsPortTaken(notStarted)) {
        throw new IllegalStateException("the node did not start: " + String.join(" / ", notStarted));
      }
    }
  }

  /** Whether a node's last lines say it stopped only because the port it was given for metrics was in use. */
  static boolean metricsPortTaken(List<String> lastLines) {
    return lastLines.stream().anyMatch(line -> line.contains(MetricsEndpoint.CANNOT_SERVE)
        && line.contains("Address already in use"));
  }

  /** Null once the node has started and stopped, writing the archive; else the last lines of a node that did not. */
  private static List<String> trainOnce(Path jar, Path pending, Path home) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:ArchiveClassesAtExit=" + pending, "-Xlog:cds=off,cds+dynamic=off"));
    // This command's -D settings (how names resolve, say) apply to the node it starts, as to worker processes; its
    // collector and heap settings too, so that the archive fits a node started with the same ones.
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("-D"))
        .forEach(command::add);
    command.addAll(layout());
    command.addAll(List.of("-jar", jar.toString(), "--config", home.resolve("none.json").toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // None of this environment (a key, a cluster, PostgreSQL): the built-in defaults, which load the classes that
    // every node loads, on ports nothing else uses.
    Map<String, String> env = builder.environment();
    env.keySet().retainAll(KEPT_VARIABLES);
    env.put("QUARRY_DATA_DIR", Files.createDirectories(home.resolve("data")).toString());
    env.put("QUARRY_HTTP_PORT", "0");
    env.put("QUARRY_METRICS_PORT", String.valueOf(freePort()));
    env.put("QUARRY_LOCAL_WORKERS_KEEP_WARM", "0");
    Process node = startStoppable(builder, pending, home);
    try {
      List<String> notStarted = awaitStart(node);
      node.toHandle().destroy();
      if (!node.waitFor(STOP_LIMIT_S, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the node did not stop within " + STOP_LIMIT_S + " s");
      }
      return notStarted;
    } finally {
      stop(node);
    }
  }

  /**
   * Starts the node so that this command stopped (Ctrl-C, SIGTERM) takes it along, however early: left running, it would
   * serve local mode on a port nobody knows of. The hook is in place before the node starts; it also deletes what the
   * command was writing (the node's temporary data directory, the archive begun), which the command's own clean-up,
   * cut short by the stop, would have.
   */
  private static Process startStoppable(ProcessBuilder builder, Path pending, Path home) throws IOException {
    NodeStart start = new NodeStart();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> start.stopping(pending, home), "class-archive-node-stop"));
    return start.start(builder);
  }

  /** The node's start and this command's shutdown take turns, so that no node starts once the hook has looked. */
  private static final class NodeStart {
    /** How long a stopped command waits for its killed node to end before it deletes the node's files. */
    private static final long KILLED_LIMIT_S = 10;
    private Process node;
    private boolean stopping;

    synchronized Process start(ProcessBuilder builder) throws IOException {
      if (stopping) {
        throw new IllegalStateException("stopped before its node started");
      }
      node = builder.start();
      return node;
    }

    synchronized void stopping(Path pending, Path home) {
      stopping = true;
      if (node != null) {
        stop(node);
        try {
          node.waitFor(KILLED_LIMIT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      try {
        Files.deleteIfExists(pending);
      } catch (IOException e) {
        System.err.println("Could not delete " + pending + ": " + e.getMessage());
      }
      delete(home);
    }
  }

  private static void stop(Process node) {
    node.descendants().forEach(ProcessHandle::destroyForcibly);
    node.destroyForcibly();
  }

  /** Null once the node has started (its output is read on, to its end); else its last lines. */
  private static List<String> awaitStart(Process node) throws InterruptedException {
    Deque<String> last = new ArrayDeque<>();
    CompletableFuture<Boolean> started = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(node.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
          synchronized (last) {
            last.addLast(line);
            if (last.size() > KEPT_LINES) {
              last.removeFirst();
            }
          }
          if (line.contains("started with roles")) {
            started.complete(true);
          }
        }
      } catch (IOException e) {
        // The node's output ended with it.
      }
      started.complete(false);
    }, "class-archive-node-output");
    reader.setDaemon(true);
    reader.start();
    boolean heard;
    try {
      heard = started.get(START_LIMIT_S, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      heard = false;
    }
    synchronized (last) {
      return heard ? null : List.copyOf(last);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Best effort: what is left is in the system's temporary directory, and says nothing of anyone. */
  private static void delete(Path tree) {
    try {
      PrivateFiles.deleteTree(tree);
    } catch (IOException e) {
      System.err.println("Could not delete " + tree + ": " + e.getMessage());
    }
  }
}
