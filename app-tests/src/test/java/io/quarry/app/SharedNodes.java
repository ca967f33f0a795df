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
 * The nodes that test classes sharing one use ({@link BrowserTestBase#sharesNode}, {@link ChatTestBase#sharesNode}),
 * reset between tests. The node of the shared defaults (most such classes ask for nothing else) is kept from class to
 * class, and closed when the JVM's tests end ({@link ForkEnd}); a node of other settings serves its class's tests and
 * closes when they end ({@link #classEnded}): kept, it idled beside the rest of the fork (a node and its worker process
 * idle at about 1.5 % of a core each, and a fork met some five such settings). Starting a node with its worker process
 * costs more than most tests.
 */
final class SharedNodes {

  /** Nodes kept at once: each holds a worker process; a class whose tests ask for several settings has several. */
  static final int KEPT = 4;

  /** What a class that asks for nothing of its own gets (see {@link #settings}). */
  private static final Map<String, String> DEFAULTS = settings(oneWorker(Map.of()));

  private record Shared(ChatHarness node, Path dir) {
  }

  private static final LinkedHashMap<Map<String, String>, Shared> nodes = new LinkedHashMap<>(8, 0.75f, true);

  private SharedNodes() {
  }

  /**
   * {@code env} with one worker process unless it asks for another number: a test's queries need one (WorkerProcessTest
   * and MetricsTest, about several, ask for more), and on two cores a node with one starts in about half the time.
   * Both bases' nodes, shared or not, start so.
   */
  static Map<String, String> oneWorker(Map<String, String> env) {
    Map<String, String> with = new HashMap<>(env);
    with.putIfAbsent("QUARRY_LOCAL_WORKERS", "1");
    return with;
  }

  /** The node with these settings, reset for the next test (see {@link ChatHarness#reset}). */
  static synchronized ChatHarness get(Map<String, String> wanted) {
    Map<String, String> env = settings(wanted);
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
    nodes.put(env, new Shared(node, dir));
    return node;
  }

  /** A node's settings: what the class wants, beside write limits the shared node's one user does not meet. */
  private static Map<String, String> settings(Map<String, String> wanted) {
    Map<String, String> env = new HashMap<>(wanted);
    // The one local user makes every test's changes, and the resets' deletions, within a minute or two.
    env.putIfAbsent("QUARRY_CHAT_WRITE_BURST", "100000");
    env.putIfAbsent("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    return Map.copyOf(env);
  }

  /** Closes the nodes of other settings than the defaults, once a class's tests have run. */
  static synchronized void classEnded() {
    nodes.entrySet().removeIf(entry -> {
      if (entry.getKey().equals(DEFAULTS)) {
        return false;
      }
      close(entry.getValue());
      return true;
    });
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
