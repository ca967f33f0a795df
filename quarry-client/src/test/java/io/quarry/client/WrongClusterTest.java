package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import io.quarry.testing.JarCommand;
import io.vertx.core.Vertx;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What an application hears when its settings name no cluster that is there: a member of another cluster listens where
 * it looks (a node with the right members list and a wrong name), on loopback.
 */
class WrongClusterTest {

  static Vertx member;
  static String address;

  /**
   * A data member, as a Quarry node is, of a cluster of its own name, on a free loopback port outside the range the
   * kernel hands to connections.
   */
  @BeforeAll
  static void otherCluster() {
    int port = JarCommand.freePort();
    address = "127.0.0.1:" + port;
    Config config = QuarryBus.hazelcast(new ClusterSettings("quarry-" + UUID.randomUUID(), List.of(address),
        "127.0.0.1", port, null)).setLiteMember(false);
    member = Vertx.builder().withClusterManager(new HazelcastClusterManager(config)).buildClustered().await();
  }

  @AfterAll
  static void stop() {
    member.close().await();
  }

  @Test
  @DisplayName("a client whose cluster name is wrong is told that no Quarry node answered, and to check the cluster's"
      + " name and its members (not Hazelcast's NoDataMemberInClusterException)")
  void wrongName() {
    String wrong = "not-the-cluster-" + UUID.randomUUID();
    ClusterSettings settings = new ClusterSettings(wrong, List.of(address), "127.0.0.1", JarCommand.freePort(), null);
    assertThatThrownBy(() -> QuarryBus.join(settings).await())
        .hasMessage("No Quarry node in the cluster '" + wrong + "': none answered at " + address
            + " (check the cluster's name and its members' addresses)");
  }
}
