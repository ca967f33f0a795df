package io.quarry.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The nodes that test classes sharing one use ({@link BrowserTestBase#sharesNode}, {@link ChatTestBase#sharesNode}): one
 * per set of settings in a test JVM, kept from class to class (classes of other settings run in between, in the order
 * the fork is given them), reset between tests, and closed when the JVM's tests end ({@link ForkEnd}). Starting a node
 * with its worker process costs more than most tests; the least recently used go past {@value #KEPT} nodes.
 */
final class SharedNodes {

  /** Nodes kept at once: each holds a worker process, and the suite has about five sets of shared settings. */
  static final int KEPT = 6;

  private record Shared(ChatHarness node, Path dir) {
  }

  private static final LinkedHashMap<Map<String, String>, Shared> nodes = new LinkedHashMap<>(8, 0.75f, true);

  private SharedNodes() {
  }

  /** The node with these settings, reset for the next test (see {@link ChatHarness#reset}). */
  static synchronized ChatHarness get(Map<String, String> wanted) {
    Map<String, String> env = new HashMap<>(wanted);
    // The one local user makes every test's changes, and the resets' deletions, within a minute or two.
    env.putIfAbsent("QUARRY_CHAT_WRITE_BURST", "100000");
    env.putIfAbsent("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    Shared shared = nodes.get(env);
    if (shared != null) {
      shared.node().reset();
      return shared.node();
    }
    while (nodes.size() >= KEPT) {
      Map<String, String> eldest = nodes.keySet().iterator().next();
      close(nodes.remove(eldest));
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("quarry-shared-node");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChatHarness node = new ChatHarness(dir, env);
    nodes.put(Map.copyOf(env), new Shared(node, dir));
    return node;
  }

  /** Closes every node, once the fork's last class has run. */
  static synchronized void close() {
    nodes.values().forEach(SharedNodes::close);
    nodes.clear();
  }

  private static void close(Shared shared) {
    shared.node().close();
    try (Stream<Path> all = Files.walk(shared.dir())) {
      for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
