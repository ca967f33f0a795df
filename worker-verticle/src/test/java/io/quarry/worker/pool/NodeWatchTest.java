package io.quarry.worker.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The pipe between a node and its worker process, as the worker reads it (the real ends halt or kill the JVM). */
class NodeWatchTest {

  final PipedOutputStream node = new PipedOutputStream();
  final CompletableFuture<String> ending = new CompletableFuture<>();

  NodeWatch watch() throws IOException {
    return watch(node, ending);
  }

  static NodeWatch watch(PipedOutputStream node, CompletableFuture<String> ending) throws IOException {
    return new NodeWatch(new PipedInputStream(node), new NodeWatch.Ending() {
      @Override
      public void stopAsked() {
        ending.complete("stop asked");
      }

      @Override
      public void nodeGone() {
        ending.complete("node gone");
      }
    }).start();
  }

  @Test
  @DisplayName("the node's key comes first; a stop the node asks for is told apart from the pipe's end")
  void stopAsked() throws Exception {
    NodeWatch watch = watch();
    ClusterKey key = ClusterKey.random("url-secret");
    key.send(node);
    assertThat(ClusterKey.parse(watch.keyLine())).isEqualTo(key);
    NodeWatch.askToStop(node);
    node.close();
    assertThat(ending.get(10, TimeUnit.SECONDS)).isEqualTo("stop asked");
  }

  @Test
  @DisplayName("a pipe that ends unannounced, after the key or before it, means the node is gone")
  void nodeGone() throws Exception {
    NodeWatch watch = watch();
    ClusterKey.random("url-secret").send(node);
    watch.keyLine();
    node.close();
    assertThat(ending.get(10, TimeUnit.SECONDS)).isEqualTo("node gone");

    PipedOutputStream killedEarly = new PipedOutputStream();
    CompletableFuture<String> early = new CompletableFuture<>();
    NodeWatch before = watch(killedEarly, early);
    killedEarly.close();
    assertThat(early.get(10, TimeUnit.SECONDS)).isEqualTo("node gone");
    assertThatThrownBy(before::keyLine)
        .hasMessage("The node did not pass this worker its cluster key on standard input");
  }
}
