package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.testing.JarCommand;
import io.quarry.testing.OwnCluster;
import io.vertx.core.Promise;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.spi.cluster.ClusterManager;
import io.vertx.core.spi.cluster.NodeInfo;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where a clustered node's event bus listens: cluster.busPort, so that a firewall can be opened for it. */
class BusPortTest {

  @TempDir
  Path dir;

  private Map<String, String> env(String busPort) {
    Map<String, String> env = new HashMap<>(TestNodes.env(dir));
    env.putAll(OwnCluster.env("quarry-bus-port-"));
    env.put("QUARRY_CLUSTER_BUS_PORT", busPort);
    return env;
  }

  @Test
  @DisplayName("a clustered node's event bus listens on QUARRY_CLUSTER_BUS_PORT's range, on its first free port (the"
      + " first is taken here), and its worker process on the next free one: every bus of the node is in the range")
  void listensWhereTold() throws Exception {
    int first = JarCommand.freeBlock(3);
    try (ServerSocket taken = new ServerSocket(first, 1, InetAddress.getByName("127.0.0.1"))) {
      Map<String, String> env = env(first + "-" + (first + 2));
      env.put("QUARRY_LOCAL_WORKERS", "1");
      Node node = TestNodes.start(env, dir, "--cluster", "--roles", "storage,worker");
      try {
        TestNodes.awaitWorkersReady(node, 1, 120);
        ClusterManager cluster = ((VertxInternal) node.vertx()).clusterManager();
        assertThat(cluster.getNodeInfo().port()).isEqualTo(first + 1);
        assertThat(busPorts(cluster)).containsExactlyInAnyOrder(first + 1, first + 2);
        new Socket("127.0.0.1", first + 1).close();
      } finally {
        node.stop().await();
      }
    }
  }

  /** Where each member of the cluster (the node and its worker process) listens for the bus. */
  private static List<Integer> busPorts(ClusterManager cluster) {
    return cluster.getNodes().stream().map(id -> {
      Promise<NodeInfo> info = Promise.promise();
      cluster.getNodeInfo(id, info);
      return info.future().await().port();
    }).toList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"bus", "0", "70000", "5720-5710", "5710-", "5710-5715-5720"})
  @DisplayName("a cluster.busPort that is not a port or a range of them stops the start, saying what it must be")
  void badValue(String value) {
    assertThatThrownBy(() -> TestNodes.start(env(value), dir, "--cluster", "--roles", "dataset"))
        .hasMessage("cluster.busPort (QUARRY_CLUSTER_BUS_PORT) must be a port from 1 to 65535 or a range of them such"
            + " as 5710-5720, not '" + value + "'");
  }
}
