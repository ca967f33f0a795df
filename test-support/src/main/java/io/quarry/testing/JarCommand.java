package io.quarry.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * How tests and benchmarks start Quarry's jar in a JVM of its own: this JVM's Java, with the same
 * hermetic name resolution (the test hosts file, no Vert.x DNS resolver), on a free loopback port.
 */
public final class JarCommand {

  /** The ports this JVM's tests were handed, never handed again. */
  private static final Set<Integer> HANDED_OUT = new HashSet<>();

  private JarCommand() {
  }

  /** {@code java [jvmOptions] -jar jar [args]}. */
  public static List<String> of(Path jar, List<String> jvmOptions, String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-Djdk.net.hosts.file=" + System.getProperty("jdk.net.hosts.file"),
        "-Dvertx.disableDnsResolver=true", "-jar", jar.toString()));
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Stops a node started from the jar as an operator would (SIGTERM to it and the worker processes it started),
   * and kills what is still running after 30 s.
   */
  public static void stop(Process node) throws InterruptedException {
    node.descendants().forEach(ProcessHandle::destroy);
    node.destroy();
    if (!node.waitFor(30, TimeUnit.SECONDS)) {
      node.destroyForcibly();
    }
  }

  /**
   * A new invite from the command an operator runs ({@code invite create}, with {@code env} and the configuration
   * file {@code config}); its output's last line is the invite.
   */
  public static String invite(Map<String, String> env, Path config) throws IOException, InterruptedException {
    ProcessBuilder command = new ProcessBuilder(of(Path.of(System.getProperty("quarry.jar")), List.of(), "invite",
        "create", "--config", config.toString())).redirectErrorStream(true);
    command.environment().putAll(env);
    command.environment().put("QUARRY_LOG_LEVEL", "INFO");
    Process process = command.start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IllegalStateException("invite create did not end within 60 s: " + output);
    }
    List<String> lines = output.lines().toList();
    return lines.get(lines.size() - 1).strip();
  }

  /**
   * A free port for a server a test starts on a port it names, below the range the system hands out to sockets bound
   * to port 0 and to outgoing connections: a port asked of the system was free when asked, but the system could hand it
   * to another socket of the run (a fork's connection, another node's port 0) before the server bound it (SamplesTest's
   * node once met "Address already in use").
   */
  public static int freePort() {
    return freeBlock(1);
  }

  /**
   * The first of {@code size} consecutive free ports, for a cluster of a test's own: below the range the system hands
   * out to sockets bound to port 0 (32768 onwards on Linux), so that no other server of the run (an HTTP edge, an event
   * bus, a shared node's private cluster) can take one of them meanwhile and hold a joining member up.
   */
  public static int freeBlock(int size) {
    for (int attempt = 0; attempt < 1_000; attempt++) {
      int first = 20_000 + ThreadLocalRandom.current().nextInt(10_000 - size);
      if (IntStream.range(first, first + size).allMatch(JarCommand::free) && handOut(first, size)) {
        return first;
      }
    }
    throw new IllegalStateException("No " + size + " free ports in a row between 20000 and 30000");
  }

  /**
   * Marks the ports handed out, unless one already was: a test takes its ports before it starts what binds them (a web
   * node's port, then its cluster's block), and a port free twice over would go to both.
   */
  private static synchronized boolean handOut(int first, int size) {
    if (IntStream.range(first, first + size).anyMatch(HANDED_OUT::contains)) {
      return false;
    }
    IntStream.range(first, first + size).forEach(HANDED_OUT::add);
    return true;
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return true;
    } catch (IOException taken) {
      return false;
    }
  }
}
