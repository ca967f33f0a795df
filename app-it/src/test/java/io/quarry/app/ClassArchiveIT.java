package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.JarCommand;
import io.quarry.testing.JarNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar quarry.jar class-archive FILE}, as an operator runs it, and a node started with what it wrote. */
class ClassArchiveIT {

  @TempDir
  Path dir;

  JarNode node;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.kill();
      // The socket jcmd's attach made the node open, which its JVM deletes only at an exit of its own.
      Files.deleteIfExists(Path.of("/tmp", ".java_pid" + node.process.pid()));
    }
  }

  private record Run(int exit, String output) {
  }

  private static Run quarry(String... args) throws Exception {
    return quarry(List.of(), args);
  }

  /** {@code jvm}: options of the JVM that runs the command. */
  private static Run quarry(List<String> jvm, String... args) throws Exception {
    return run(JarCommand.of(Path.of(System.getProperty("quarry.jar")), jvm, args));
  }

  private static Run run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("ended").isTrue();
      return new Run(process.exitValue(), output);
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  @DisplayName("run as the container image runs it (G1, a quarter of the memory), it writes an archive in place of a"
      + " stale one (nothing half-written beside it), says to start with those settings, and a node started as the"
      + " image starts it, with -Xshare:on (which refuses an archive it cannot map), starts with it")
  void written() throws Exception {
    Path archive = dir.resolve("quarry.jsa");
    Files.writeString(archive, "an archive of another jar");
    Run run = quarry(List.of("-XX:MaxRAMPercentage=25", "-XX:+UseG1GC"), "class-archive", archive.toString());
    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output()).startsWith("Wrote " + archive + " (")
        .contains("java -XX:MaxRAMPercentage=25 -XX:+UseG1GC -XX:SharedArchiveFile=" + archive);
    assertThat(Files.size(archive)).isGreaterThan(1 << 20);
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(archive);
    }

    // The Dockerfile's entrypoint, with no setting of the tests' own.
    node = JarNode.launchAsGiven(Path.of(System.getProperty("quarry.jar")), List.of("-XX:MaxRAMPercentage=25",
            "-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError", "-Xshare:on", "-XX:SharedArchiveFile=" + archive),
        dir.resolve("node.log"), Map.of("QUARRY_HTTP_PORT", "0", "QUARRY_DATA_DIR", dir.resolve("data").toString()),
        "--config", dir.resolve("absent.json").toString());
    node.awaitStarted(120);
  }

  @Test
  @DisplayName("run under ZGC (for an operator who chooses it: it lays objects out without compressed pointers), it"
      + " writes an archive that a node under ZGC started with -Xshare:on maps, and says to start it so; the node"
      + " keeps its heap near 768 MB")
  void sameCollector() throws Exception {
    Path archive = dir.resolve("zgc.jsa");
    Run run = quarry(List.of("-XX:+UseZGC"), "class-archive", archive.toString());
    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(run.output()).contains("java -XX:+UseZGC -XX:SharedArchiveFile=" + archive);

    // With no collector of the tests' own beside ZGC.
    node = JarNode.launchAsGiven(Path.of(System.getProperty("quarry.jar")), List.of("-XX:MaxRAMPercentage=25",
            "-XX:+UseZGC", "-Xshare:on", "-XX:SharedArchiveFile=" + archive), dir.resolve("node.log"),
        Map.of("QUARRY_HTTP_PORT", "0", "QUARRY_DATA_DIR", dir.resolve("data").toString()), "--config",
        dir.resolve("absent.json").toString());
    node.awaitStarted(120);
    // Its maximum heap, a quarter of this machine's memory, is far above the soft size the node gives itself.
    node.awaitLine("Under ZGC the heap is kept near 768 MB", 30);
    assertThat(vmFlag(node, "SoftMaxHeapSize")).isEqualTo(768L << 20);
  }

  /** A flag's value in the running JVM, as {@code jcmd PID VM.flags} tells it. */
  private static long vmFlag(JarNode node, String name) throws Exception {
    Run flags = run(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        String.valueOf(node.process.pid()), "VM.flags"));
    Matcher flag = Pattern.compile("-XX:" + name + "=(\\d+)").matcher(flags.output());
    assertThat(flag.find()).as(flags.output()).isTrue();
    return Long.parseLong(flag.group(1));
  }

  @Test
  @DisplayName("stopped as Ctrl-C or SIGTERM stops it while its node starts, it takes the node with it, writes nothing"
      + " and leaves nothing of its own behind (the node's temporary data directory, the archive begun)")
  void stoppedTakesItsNode() throws Exception {
    Path archive = dir.resolve("quarry.jsa");
    Path temp = Files.createDirectories(dir.resolve("tmp"));
    Process command = new ProcessBuilder(JarCommand.of(Path.of(System.getProperty("quarry.jar")),
        List.of("-Djava.io.tmpdir=" + temp), "class-archive", archive.toString())).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    ProcessHandle node = null;
    try {
      node = child(command);
      command.destroy();
      assertThat(command.waitFor(60, TimeUnit.SECONDS)).as("the command ended").isTrue();
      node.onExit().get(30, TimeUnit.SECONDS);
      assertThat(node.isAlive()).isFalse();
      assertThat(archive).doesNotExist();
      assertThat(archive.resolveSibling("quarry.jsa.pending")).doesNotExist();
      try (var left = Files.list(temp)) {
        assertThat(left.map(p -> p.getFileName().toString())).as("the command's temporary directory")
            .noneMatch(name -> name.startsWith("quarry-class-archive"));
      }
    } finally {
      // Were it left behind, the node is no longer the command's descendant.
      if (node != null) {
        node.destroyForcibly();
      }
      command.destroyForcibly();
    }
  }

  /**
   * The node the command started: looked for every 25 ms, for up to a minute, since nothing tells a test that a process
   * started one.
   */
  private static ProcessHandle child(Process command) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() < deadline) {
      var started = command.children().findFirst();
      if (started.isPresent()) {
        return started.get();
      }
      Thread.sleep(25);
    }
    throw new AssertionError("the command started no node within a minute");
  }

  @Test
  @DisplayName("without a file, or into a directory that is not there, it exits 1 saying why and starts no node")
  void refused() throws Exception {
    Run bare = quarry("class-archive");
    assertThat(bare.exit()).isEqualTo(1);
    assertThat(bare.output()).isEqualTo("Could not write the class archive: usage: java -jar quarry.jar class-archive FILE");
    Path missing = dir.resolve("missing");
    Run nowhere = quarry("class-archive", missing.resolve("quarry.jsa").toString());
    assertThat(nowhere.exit()).isEqualTo(1);
    assertThat(nowhere.output()).isEqualTo("Could not write the class archive: cannot write to the directory " + missing);
    assertThat(missing).doesNotExist();
  }
}
