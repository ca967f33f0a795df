package io.quarry.worker.pool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Both ends of the pipe between a node and a worker process it started (the worker's standard input). The node writes
 * the {@link ClusterKey} line, then nothing until it stops the worker on purpose: one byte more, then the pipe closes.
 * A pipe that closes without that byte means the node is gone, killed outright even (the kernel closes its end), and
 * the worker ends at once, whatever it is doing: its JVM starting, joining the node's cluster (with the node gone,
 * Hazelcast waits seconds for nobody), loading DuckDB, warming up or running. So the watch begins first thing in the
 * worker's main, on a thread of its own that waits on nothing else; it and the worker's end load few classes and no
 * lambda (Java's first costs 30 ms), so that a worker whose node died while its JVM started ends in a few hundred ms.
 */
public final class NodeWatch {

  /** A line longer than this is not a key: the node writes one short line. */
  private static final int MAX_LINE = 1_024;
  /** After the key: the node stops this worker on purpose. */
  private static final int STOP = 's';

  /** What the watch does once the pipe has told. */
  interface Ending {
    void stopAsked();

    void nodeGone();
  }

  private final InputStream fromNode;
  private final Ending ending;
  private final CompletableFuture<String> keyLine = new CompletableFuture<>();

  NodeWatch(InputStream fromNode, Ending ending) {
    this.fromNode = fromNode;
    this.ending = ending;
  }

  /** {@code supervisor}: the worker's {@code --supervisor}, which names its temporary directory. */
  public static NodeWatch start(InputStream fromNode, String supervisor) {
    return new NodeWatch(fromNode, new ThisWorker(Supervised.workerId(supervisor))).start();
  }

  NodeWatch start() {
    Thread watcher = new Thread(new Watcher(), "quarry-node-watch");
    watcher.setDaemon(true);
    watcher.start();
    return this;
  }

  /** The node's key line; waits for it (the node writes it as it starts the process). */
  public String keyLine() {
    try {
      return keyLine.join();
    } catch (CompletionException e) {
      throw (RuntimeException) e.getCause();
    }
  }

  /** The node's side: asks a worker to stop before its pipe closes, so that the worker does not take it for dead. */
  static void askToStop(OutputStream toWorker) {
    try {
      toWorker.write(STOP);
      toWorker.flush();
    } catch (IOException e) {
      // It has ended already.
    }
  }

  private final class Watcher implements Runnable {
    @Override
    public void run() {
      int next;
      try {
        readKey();
        next = fromNode.read();
      } catch (IOException e) {
        next = -1;
      }
      if (next >= 0) {
        ending.stopAsked();
      } else {
        keyLine.completeExceptionally(new IllegalStateException("The node that started this worker is gone"));
        ending.nodeGone();
      }
    }
  }

  /** Byte by byte, so that nothing past the line is taken. */
  private void readKey() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = fromNode.read(); b != '\n'; b = fromNode.read()) {
      if (b < 0 || line.size() >= MAX_LINE) {
        keyLine.completeExceptionally(
            new IllegalStateException("The node did not pass this worker its cluster key on standard input"));
        return;
      }
      line.write(b);
    }
    keyLine.complete(line.toString(StandardCharsets.UTF_8));
  }

  /** The worker process this is. */
  private record ThisWorker(String workerId) implements Ending {

    /** As a worker always stopped: at once (its JVM's exit still writes the class archive the node keeps). */
    @Override
    public void stopAsked() {
      LoggerFactory.getLogger(NodeWatch.class).info("The node asked this worker to stop");
      Runtime.getRuntime().halt(0);
    }

    /**
     * Nobody is left to read what it says (its output went to the node) or to keep what its JVM writes as it exits (the
     * class archive, which the node puts in place: 3.6 s of a worker's exit, measured), so it deletes its temporary
     * directory, as the node would have, and kills itself, skipping the JVM's exit.
     */
    @Override
    public void nodeGone() {
      deleteOwnTemp();
      try {
        new ProcessBuilder("/bin/sh", "-c", "kill -9 " + ProcessHandle.current().pid())
            .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start().waitFor(1, TimeUnit.SECONDS);
      } catch (IOException | RuntimeException e) {
        // No shell: the JVM's own exit, slower.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      Runtime.getRuntime().halt(1);
    }

    /** Only the directory the node made for this worker (named after it), never a system's temporary directory. */
    private void deleteOwnTemp() {
      Path temp = Path.of(System.getProperty("java.io.tmpdir"));
      if (temp.getFileName() == null || !temp.getFileName().toString().equals(workerId)) {
        return;
      }
      try {
        Files.walkFileTree(temp, new Deletion());
      } catch (IOException | RuntimeException e) {
        // Gone already.
      }
    }
  }

  /** Deletes what it can: what is left (a file being made meanwhile), the node's next start clears. */
  private static final class Deletion extends SimpleFileVisitor<Path> {
    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
      file.toFile().delete();
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult visitFileFailed(Path file, IOException e) {
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path directory, IOException e) {
      directory.toFile().delete();
      return FileVisitResult.CONTINUE;
    }
  }
}
