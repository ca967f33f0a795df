package io.quarry.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The node that test classes sharing one use ({@link BrowserTestBase#sharesNode}, {@link ChatTestBase#sharesNode}): one
 * per test JVM, kept from class to class while they ask for the same settings, reset between tests, and closed when
 * the JVM's tests end. Starting a node with its worker process costs more than most tests.
 */
final class SharedNodes implements BeforeAllCallback {

  private static final ExtensionContext.Namespace HERE = ExtensionContext.Namespace.create(SharedNodes.class);

  private static ChatHarness node;
  private static Map<String, String> settings;
  private static Path dir;

  /** Closes the node at the end of the run, however many classes used it. */
  @Override
  public void beforeAll(ExtensionContext context) {
    context.getRoot().getStore(HERE).getOrComputeIfAbsent("node",
        key -> (ExtensionContext.Store.CloseableResource) SharedNodes::close);
  }

  /** The node with these settings, reset for the next test (see {@link ChatHarness#reset}). */
  static synchronized ChatHarness get(Map<String, String> wanted) {
    Map<String, String> env = new HashMap<>(wanted);
    // The one local user makes every test's changes, and the resets' deletions, within a minute or two.
    env.putIfAbsent("QUARRY_CHAT_WRITE_BURST", "100000");
    env.putIfAbsent("QUARRY_CHAT_WRITES_PER_MINUTE", "100000");
    if (node != null && settings.equals(env)) {
      node.reset();
      return node;
    }
    close();
    try {
      dir = Files.createTempDirectory("quarry-shared-node");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    settings = Map.copyOf(env);
    node = new ChatHarness(dir, env);
    return node;
  }

  static synchronized void close() {
    if (node == null) {
      return;
    }
    node.close();
    node = null;
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
