package io.quarry.worker.pool;

import io.quarry.bus.PrivateFiles;
import io.vertx.core.file.FileSystem;
import io.vertx.core.file.FileSystemException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The command line of a worker process: the same jar (or class path) as this node, after DuckDB's library stored
 * uncompressed ({@link StoredNativeLibrary}), {@code --roles worker
 * --cluster} joined to this node, its Java heap and native memory sized to fit under an address-space
 * cap that the operating system enforces ({@code ulimit -v}, i.e. {@code RLIMIT_AS}).
 */
final class WorkerCommand {

  private static final Logger log = LoggerFactory.getLogger(WorkerCommand.class);

  /**
   * Sets the cap, then becomes the JVM; a system that refuses the cap still runs the worker, and says so. Native
   * threads (DuckDB's: one per database the worker keeps) get 2 MB stacks instead of 8 MB, which halves what an
   * idle database maps and so doubles how many fit under the cap; Java threads size their own stacks.
   */
  private static final String CAPPED = "ulimit -v \"$1\" 2>/dev/null || echo \"quarry: this system refused the "
      + "worker memory cap; only the JVM and DuckDB limits apply\" >&2; ulimit -s 2048 2>/dev/null; shift; "
      + "exec \"$@\"";

  /** The JDK internals Hazelcast reads (the jar's manifest opens the same ones for {@code java -jar}). */
  private static final List<String> HAZELCAST_ACCESS = List.of(
      "--add-opens", "java.base/java.lang=ALL-UNNAMED",
      "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens", "java.management/sun.management=ALL-UNNAMED",
      "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
      "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED");

  private static final long STOP_GRACE_MS = 5_000;
  private static final long ARCHIVE_STOP_GRACE_MS = 30_000;

  private final LocalWorkersConfig settings;
  private final String mainClass;
  /** Where the class archive and DuckDB's library jar go. */
  private final Path archives;
  private final Path home;
  private final FileSystem files;
  /**
   * One temporary directory per process, removed when the process ends however it ends. The DuckDB
   * driver unpacks its 69 MB native library into {@code java.io.tmpdir} at every start and deletes it
   * only on a clean exit, so each killed or crashed worker used to leave a copy in /tmp for good.
   */
  private final Path temp;
  /** Made by {@link #prepare}: null until then. */
  private volatile Launch launch;

  /** The class path of the processes, and their class archive (keyed by that class path). */
  private record Launch(String classPath, ClassArchive classes) {
  }

  /**
   * {@code home}: where the workers' configuration files and crash reports go; {@code archives}: their class archive
   * and DuckDB's library jar ({@link StoredNativeLibrary}).
   */
  WorkerCommand(LocalWorkersConfig settings, String mainClass, Path archives, Path home, FileSystem files) {
    this.settings = settings;
    this.mainClass = mainClass;
    this.archives = archives;
    this.home = home;
    this.files = files;
    this.temp = home.resolve("tmp");
  }

  /**
   * Makes what every process's command needs, once: the class path (the first start of a data directory writes
   * DuckDB's library into a jar, a third of a CPU-second), the class archive's name, and no files of an earlier run's
   * processes (they end with their node, and a node killed outright cannot clean up). Blocks; the first process to
   * start waits for it, so the node need not.
   */
  synchronized void prepare() {
    if (launch == null) {
      String classPath = StoredNativeLibrary.workerClassPath(archives);
      delete(temp);
      launch = new Launch(classPath, ClassArchive.in(archives, classPath));
    }
  }

  /**
   * How long a process asked to end may take before it is killed: one writing the class archive dumps thousands of
   * classes first, which on a loaded machine takes longer than a worker's ordinary exit.
   */
  long stopGraceMs(String workerId) {
    Launch made = launch;
    return made != null && made.classes().writing(workerId) ? ARCHIVE_STOP_GRACE_MS : STOP_GRACE_MS;
  }

  /**
   * A worker process ended (the archive it may have been writing is complete now). Called off the event
   * loop, before the supervisor hears of the exit: the files are gone by the time a new process starts.
   */
  void ended(String workerId) {
    Launch made = launch;
    if (made != null) {
      made.classes().workerEnded(workerId);
    }
    delete(temp.resolve(workerId));
    // What the JVM wrote as it died (its crash report) is the account's alone, as all else here.
    PrivateFiles.tree(home);
  }

  /**
   * A worker process is ready: what libraries wrote into its temporary directory becomes 0600 (Vert.x's file cache;
   * DuckDB's native library, 0744, where the worker could not delete it once loaded: see UnpackedLibrary). Blocks.
   */
  void ready(String workerId) {
    PrivateFiles.tree(temp.resolve(workerId));
  }

  private void delete(Path tree) {
    try {
      if (files.existsBlocking(tree.toString())) {
        files.deleteRecursiveBlocking(tree.toString());
      }
    } catch (FileSystemException e) {
      log.warn("Could not delete {}: {}", tree, e.getMessage());
    }
  }

  /** Blocks (see {@link #prepare}). */
  ProcessBuilder build(int slot, String supervisor, String workerId, Path configFile) throws IOException {
    prepare();
    Launch made = launch;
    Path ownTemp = PrivateFiles.directory(temp.resolve(workerId));
    List<String> command = new ArrayList<>();
    if (settings.memoryCapMb() > 0 && Files.isExecutable(Path.of("/bin/sh"))) {
      command.addAll(List.of("/bin/sh", "-c", CAPPED, "quarry-worker", String.valueOf(settings.memoryCapMb() * 1024)));
    }
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions(slot));
    // After the node's own -D settings, which a worker otherwise inherits: the last one counts.
    command.add("-Djava.io.tmpdir=" + ownTemp);
    command.add("-Dquarry.worker.name=worker-" + slot);
    command.addAll(made.classes().options(workerId));
    command.addAll(List.of("-cp", made.classPath(), mainClass,
        "--roles", "worker", "--cluster", "--config", configFile.toString(), "--supervisor", supervisor + "/" + workerId));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    // Built anew, not inherited: a worker runs users' SQL, and gets none of the node's keys, passwords or tokens.
    builder.environment().clear();
    builder.environment().putAll(WorkerEnvironment.variables(System.getenv()));
    return builder;
  }

  /**
   * Native memory is kept small and predictable so that DuckDB gets what the cap leaves: fixed class
   * and code spaces, two malloc arenas, bounded direct buffers; a full heap ends the process, which
   * the supervisor reports as a memory failure and restarts.
   */
  private List<String> jvmOptions(int slot) {
    List<String> options = new ArrayList<>(List.of(
        "-Xmx" + settings.heapMb() + "m",
        "-Xss1m",
        "-XX:+UseSerialGC",
        // C1 only: a worker is ready (or back after dying) sooner, and its hot path is DuckDB's native code;
        // the dataset benchmark showed no slower queries than with C2.
        "-XX:TieredStopAtLevel=1",
        // No performance-data file, nor the JVM's sampling of it every 50 ms: an idle worker used about a quarter less
        // CPU without them (0.8 CPU-seconds a minute instead of 1.0). jcmd still reaches a worker by its pid.
        "-XX:-UsePerfData",
        "-XX:CompressedClassSpaceSize=64m",
        "-XX:ReservedCodeCacheSize=64m",
        "-XX:MaxMetaspaceSize=192m",
        "-XX:MaxDirectMemorySize=64m",
        "-XX:+ExitOnOutOfMemoryError",
        "-XX:ErrorFile=" + home.resolve("worker-" + slot + "-crash-%p.log")));
    options.addAll(HAZELCAST_ACCESS);
    options.addAll(WorkerEnvironment.properties(ManagementFactory.getRuntimeMXBean().getInputArguments()));
    return options;
  }
}
