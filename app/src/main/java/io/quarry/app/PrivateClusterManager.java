package io.quarry.app;

import com.hazelcast.config.Config;
import com.hazelcast.config.SocketInterceptorConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.DefaultNodeContext;
import com.hazelcast.instance.impl.DefaultNodeExtension;
import com.hazelcast.instance.impl.HazelcastInstanceFactory;
import com.hazelcast.instance.impl.Node;
import com.hazelcast.instance.impl.NodeExtension;
import com.hazelcast.nio.MemberSocketInterceptor;
import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The cluster manager of a node's private cluster (the node and the worker processes it started): a Hazelcast
 * member whose every connection passes {@link MemberGate} first. Hazelcast's open-source edition has no hook for
 * that but the node extension of an instance built by hand, so this builds the instance, and leaves it when Vert.x
 * leaves the cluster (Vert.x leaves running an instance it was handed).
 */
final class PrivateClusterManager extends HazelcastClusterManager {

  /** Vert.x's own name for the member attribute that holds its node id (it reads it from an instance it is handed). */
  private static final String NODE_ID_ATTRIBUTE = "__vertx.nodeId";

  private PrivateClusterManager(HazelcastInstance instance) {
    super(instance);
  }

  /**
   * Starts the member on a thread of its own (joining blocks), named without the cluster's name: Hazelcast names
   * its threads after the instance, and a thread's name is readable by every account on the machine.
   */
  static Future<HazelcastClusterManager> start(Config config, String memberSecret) {
    MemberGate gate = new MemberGate(memberSecret);
    config.setInstanceName("quarry-private-" + UUID.randomUUID());
    config.getNetworkConfig().setSocketInterceptorConfig(new SocketInterceptorConfig().setEnabled(true));
    config.getMemberAttributeConfig().setAttribute(NODE_ID_ATTRIBUTE, UUID.randomUUID().toString());
    return Future.fromCompletionStage(CompletableFuture.supplyAsync(() ->
        new PrivateClusterManager(HazelcastInstanceFactory.newHazelcastInstance(config, config.getInstanceName(),
            new GatedContext(gate)))));
  }

  @Override
  public void leave(Completable<Void> done) {
    super.leave((left, failure) -> {
      Thread shutdown = new Thread(() -> {
        getHazelcastInstance().getLifecycleService().shutdown();
        done.complete(left, failure);
      }, "quarry-private-cluster-leave");
      shutdown.start();
    });
  }

  /** Hazelcast's default node, with the gate as the interceptor of its member connections. */
  private static final class GatedContext extends DefaultNodeContext {

    private final MemberGate gate;

    GatedContext(MemberGate gate) {
      this.gate = gate;
    }

    @Override
    public NodeExtension createNodeExtension(Node node) {
      return new DefaultNodeExtension(node) {
        @Override
        public MemberSocketInterceptor getSocketInterceptor(EndpointQualifier endpoint) {
          return gate;
        }
      };
    }
  }
}
