package io.quarry.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The cache's pinning: a file a query uses is neither evicted nor deleted until that query releases it; one dropped
 * meanwhile is deleted with its last release. Lives on the worker verticle's event loop.
 */
final class PinnedFiles {

  /** Files a query holds; releasing twice, or pinning after release, is harmless. */
  final class Pins {
    private final List<Path> held = new ArrayList<>();
    private boolean released;

    void hold(Path file) {
      if (released) {
        return;
      }
      held.add(file);
      pins.merge(file, 1, Integer::sum);
    }

    void release() {
      if (released) {
        return;
      }
      released = true;
      held.forEach(PinnedFiles.this::unpin);
    }
  }

  private final Map<Path, Integer> pins = new HashMap<>();
  private final Set<Path> doomed = new HashSet<>();
  private final Consumer<Path> delete;

  /** @param delete deletes a file no query uses any more */
  PinnedFiles(Consumer<Path> delete) {
    this.delete = delete;
  }

  Pins pins() {
    return new Pins();
  }

  boolean pinned(Path file) {
    return pins.containsKey(file);
  }

  /** Deletes the file now, or when the last query using it releases it. */
  void drop(Path file) {
    if (pins.containsKey(file)) {
      doomed.add(file);
      return;
    }
    delete.accept(file);
  }

  private void unpin(Path file) {
    Integer left = pins.merge(file, -1, Integer::sum);
    if (left != null && left <= 0) {
      pins.remove(file);
      if (doomed.remove(file)) {
        drop(file);
      }
    }
  }
}
