package io.quarry.worker.pool;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A worker process's output, copied line by line into this node's standard output under the worker's
 * name (so operators read one log), with its last lines kept to tell why it died.
 */
final class ChildOutput {

  private static final int TAIL_LINES = 40;

  private final Deque<String> tail = new ArrayDeque<>();
  private final CompletableFuture<Void> finished = new CompletableFuture<>();

  /** Reads on a thread of its own until the process closes its output (blocking reads have no other home). */
  static ChildOutput pump(InputStream output, String name, PrintStream sink) {
    ChildOutput child = new ChildOutput();
    Thread reader = new Thread(() -> child.copy(output, name, sink), "quarry-" + name + "-output");
    reader.setDaemon(true);
    reader.start();
    return child;
  }

  private void copy(InputStream output, String name, PrintStream sink) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(output, StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        // A JSON line (QUARRY_LOG_FORMAT=json) says whose it is in its own "worker" field, and stays a JSON line.
        sink.println(line.startsWith("{") ? line : name + " | " + line);
        remember(line);
      }
    } catch (IOException e) {
      // The process is gone and took its pipe with it: nothing more to copy.
    } finally {
      finished.complete(null);
    }
  }

  /** Completes when the process has closed its output (it ended) and every line has been copied. */
  CompletableFuture<Void> finished() {
    return finished;
  }

  private synchronized void remember(String line) {
    if (tail.size() == TAIL_LINES) {
      tail.removeFirst();
    }
    tail.addLast(line);
  }

  synchronized List<String> tail() {
    return List.copyOf(tail);
  }
}
