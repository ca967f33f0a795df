package io.quarry.client;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.partition.NoDataMemberInClusterException;
import io.quarry.bus.MembersLeaving;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import io.vertx.spi.cluster.hazelcast.ConfigUtil;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.List;

/**
 * Joins a Quarry cluster as an application does: a Hazelcast <em>lite</em> member (it holds none of the cluster's data,
 * as Quarry's own workers do not), its event bus with all four TLS settings of mutual authentication, member
 * departures published for failover, and a check before it answers that the cluster's nodes take its messages: a
 * wrong certificate, a CA of another cluster, or TLS off against a cluster that runs it fails the join, saying so,
 * instead of every request then timing out as if Quarry were down.
 *
 * <pre>{@code
 * Vertx vertx = QuarryBus.join(new ClusterSettings("quarry", List.of("10.0.0.5:5701"), "10.0.0.9", 5701,
 *     new ClusterSettings.Tls(Path.of("app-key.pem"), Path.of("app.pem"), Path.of("ca.pem")))).await();
 * Conversations conversations = new Conversations(vertx);
 * }</pre>
 */
public final class QuarryBus {

  private QuarryBus() {
  }

  /** A clustered Vert.x joined to the cluster, once a Quarry node's event bus has accepted this one's TLS. */
  public static Future<Vertx> join(ClusterSettings settings) {
    HazelcastClusterManager manager = new HazelcastClusterManager(hazelcast(settings));
    EventBusOptions bus = eventBus(settings);
    return Vertx.builder().with(new VertxOptions().setEventBusOptions(bus)).withClusterManager(manager)
        .buildClustered()
        .recover(e -> Future.failedFuture(alone(e) ? noNode(settings) : e))
        .compose(vertx -> {
          publishDepartures(vertx, manager);
          return checked(vertx, manager, settings, bus)
              .recover(e -> vertx.close().transform(closed -> Future.<Vertx>failedFuture(e)));
        });
  }

  static Config hazelcast(ClusterSettings settings) {
    Config config = ConfigUtil.loadConfig().setClusterName(settings.name()).setLiteMember(true);
    config.getNetworkConfig().setPort(settings.port() == 0 ? 5701 : settings.port())
        .setPortAutoIncrement(settings.port() == 0);
    config.getNetworkConfig().getInterfaces().setEnabled(true).clear().addInterface(settings.host());
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(settings.members());
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    return config;
  }

  /**
   * Mutual authentication: a certificate to show, the cluster's CA to check others by, a certificate demanded of whoever
   * connects (or members without one could send here), and no trusting every server (or this would send to them).
   */
  static EventBusOptions eventBus(ClusterSettings settings) {
    EventBusOptions bus = new EventBusOptions().setHost(settings.host()).setPort(0);
    ClusterSettings.Tls tls = settings.tls();
    if (tls == null) {
      return bus;
    }
    return bus.setSsl(true)
        .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(tls.key().toString()).setCertPath(tls.cert().toString()))
        .setTrustOptions(new PemTrustOptions().addCertPath(tls.ca().toString()))
        .setClientAuth(ClientAuth.REQUIRED)
        .setTrustAll(false);
  }

  /** Quarry's failover sends a request again at once when its node leaves: it must hear of departures. */
  private static void publishDepartures(Vertx vertx, HazelcastClusterManager manager) {
    Departures.listen(manager, member -> MembersLeaving.publish(vertx.eventBus(), member));
  }

  /** The oldest other member's event bus, asked with this one's settings: does it take what this one sends? */
  private static Future<Vertx> checked(Vertx vertx, HazelcastClusterManager manager, ClusterSettings settings,
      EventBusOptions bus) {
    List<String> others = manager.getNodes().stream().filter(node -> !node.equals(manager.getNodeId())).toList();
    if (others.isEmpty()) {
      return Future.failedFuture(noNode(settings));
    }
    Promise<NodeInfo> info = Promise.promise();
    manager.getNodeInfo(others.get(0), info);
    return info.future().compose(node -> settings.tls() == null ? inClear(vertx, node) : withTls(vertx, bus, node))
        .map(vertx);
  }

  /**
   * A lite member that met no member of its cluster (a wrong name or members list) is alone, and Hazelcast refuses the
   * first cluster-wide map Vert.x writes while it joins: that means no Quarry node, not a Hazelcast fault.
   */
  private static boolean alone(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof NoDataMemberInClusterException) {
        return true;
      }
    }
    return false;
  }

  private static IllegalStateException noNode(ClusterSettings settings) {
    return new IllegalStateException("No Quarry node in the cluster '" + settings.name() + "': none answered at "
        + String.join(", ", settings.members()) + " (check the cluster's name and its members' addresses)");
  }

  private static Future<Void> withTls(Vertx vertx, EventBusOptions bus, NodeInfo node) {
    BusProbe probe = BusProbe.asMember(vertx, bus);
    return probe.handshake(node).eventually(() -> {
      probe.close();
      return Future.succeededFuture();
    }).recover(e -> Future.failedFuture(new IllegalStateException("The event bus of the Quarry node at "
        + node.host() + ":" + node.port() + " and this application's did not agree on TLS (" + e.getMessage()
        + "): this application's certificate must be signed by the cluster's CA, its CA file must be the cluster's"
        + " CA, and the cluster must run its bus with TLS", e)));
  }

  /** A bus in the clear cannot talk to one with TLS: a node that completes a handshake runs TLS. */
  private static Future<Void> inClear(Vertx vertx, NodeInfo node) {
    BusProbe probe = BusProbe.anyTls(vertx);
    return probe.handshake(node).transform(handshake -> {
      probe.close();
      return handshake.succeeded()
          ? Future.failedFuture(new IllegalStateException("The cluster's event bus runs TLS (the Quarry node at "
              + node.host() + ":" + node.port() + " answered a TLS handshake) and this application's does not: give"
              + " it a certificate the cluster's CA signed, its key and the CA (ClusterSettings.Tls)"))
          : Future.succeededFuture();
    });
  }
}
