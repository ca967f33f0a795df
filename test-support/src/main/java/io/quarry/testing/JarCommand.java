package io.quarry.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How tests and benchmarks start Quarry's jar in a JVM of its own: this JVM's Java, with the same
 * hermetic name resolution (the test hosts file, no Vert.x DNS resolver), on a free loopback port.
 */
public final class JarCommand {

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

  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
