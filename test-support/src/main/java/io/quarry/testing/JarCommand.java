package io.quarry.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
