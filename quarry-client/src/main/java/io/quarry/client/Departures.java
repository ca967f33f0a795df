package io.quarry.client;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.function.Consumer;

/** Members that leave the cluster, by the id of their Hazelcast member, as Quarry's nodes and clients hear of them. */
public final class Departures {

  private Departures() {
  }

  /** {@code left} is called with the member's id, on a Hazelcast thread: it must not block. */
  public static void listen(HazelcastClusterManager manager, Consumer<String> left) {
    manager.getHazelcastInstance().getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        left.accept(event.getMember().getUuid().toString());
      }
    });
  }
}
