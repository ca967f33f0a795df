package io.quarry.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests: Debian's {@code postgresql} package, initialised with {@code initdb} in a
 * temporary directory and started with {@code pg_ctl} on a free port of 127.0.0.1 only (no Unix socket anyone else
 * uses). {@code initdb} refuses root, so as root it runs as the {@code postgres} user. One server per JVM, stopped
 * when the JVM exits; each caller gets a database of its own ({@link #newDatabase}).
 */
public final class PostgresServer {

  public static final String USER = "quarry";
  private static PostgresServer shared;

  private final Path dir;
  private final Path bin;
  private final int port;
  private final AtomicInteger databases = new AtomicInteger();

  private PostgresServer(Path dir, Path bin, int port) {
    this.dir = dir;
    this.bin = bin;
    this.port = port;
  }

  /** The JVM's server, started on first use. */
  public static synchronized PostgresServer shared() {
    if (shared == null) {
      shared = start(PostgresServer::freePort);
      PostgresServer server = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
    }
    return shared;
  }

  public int port() {
    return port;
  }

  /** A new, empty database owned by {@link #USER}; its name. */
  public String newDatabase() {
    String name = "quarry_test_" + databases.incrementAndGet();
    run(List.of(bin.resolve("psql").toString(), "-h", "127.0.0.1", "-p", String.valueOf(port), "-U", USER, "-d",
        "postgres", "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE " + name), dir);
    return name;
  }

  /** A server of its own, its ports taken from {@code ports}; {@link #stop} it. */
  static PostgresServer start(IntSupplier ports) {
    try {
      Path bin = binaries();
      Path dir = Files.createTempDirectory("quarry-postgres");
      Path data = dir.resolve("data");
      boolean root = "root".equals(System.getProperty("user.name"));
      if (root) {
        run(List.of("chown", "-R", "postgres", dir.toString()), dir);
      }
      run(as(root, List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--auth=trust",
          "-E", "UTF8", "--locale=C.UTF-8")), dir);
      return new PostgresServer(dir, bin, listen(bin, dir, root, ports));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Starts the server on a free port; its port. A port found free can be taken before the server binds it (an
   * outgoing connection of another test JVM gets it as its ephemeral port), so a server that cannot bind is started
   * again on another port, a few times.
   */
  private static int listen(Path bin, Path dir, boolean root, IntSupplier ports) throws IOException {
    Path log = dir.resolve("server.log");
    for (int attempt = 1; ; attempt++) {
      int port = ports.getAsInt();
      Files.deleteIfExists(log);
      try {
        run(as(root, List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-w", "-t", "60",
            "-l", log.toString(), "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1"
                + " -c fsync=off -c max_connections=200", "start")), dir);
        return port;
      } catch (IllegalStateException e) {
        String said = Files.exists(log) ? Files.readString(log) : "(no server log)";
        if (attempt == 3 || !said.contains("could not bind")) {
          throw new IllegalStateException(e.getMessage() + "\nserver log:\n" + said, e);
        }
      }
    }
  }

  void stop() {
    boolean root = "root".equals(System.getProperty("user.name"));
    try {
      run(as(root, List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
          "stop")), dir);
    } finally {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      } catch (IOException ignored) {
        // A temporary directory left behind costs nothing that matters.
      }
    }
  }

  /** On the PATH, or where Debian's package puts them (the newest version there). */
  private static Path binaries() throws IOException {
    for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(entry, "pg_ctl");
      if (!entry.isEmpty() && Files.isExecutable(candidate)) {
        return candidate.toRealPath().getParent();
      }
    }
    Path debian = Path.of("/usr/lib/postgresql");
    if (Files.isDirectory(debian)) {
      try (Stream<Path> versions = Files.list(debian)) {
        return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("pg_ctl")))
            .max(Comparator.comparing(b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", ""))))
            .orElseThrow(() -> new IllegalStateException("No PostgreSQL server binaries: install Debian's postgresql"));
      }
    }
    throw new IllegalStateException("No PostgreSQL server binaries: install Debian's postgresql package");
  }

  private static List<String> as(boolean root, List<String> command) {
    if (!root) {
      return command;
    }
    List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", "postgres", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  private static void run(List<String> command, Path dir) {
    try {
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
