package io.quarry.app;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.XmlConfigBuilder;
import io.quarry.bus.MembersLeaving;
import io.quarry.client.Departures;
import io.quarry.worker.pool.ClusterKey;
import io.quarry.bus.Addresses;
import io.quarry.bus.BusSecret;
import io.quarry.bus.UrlSeal;
import io.quarry.bus.Defaults;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;

/**
 * A clustered Vert.x on Hazelcast: {@code cluster.xml} (beside the configuration file, else {@link BuiltInCluster}),
 * with the cluster name, interface, TCP-IP members and failure detection of Quarry's configuration set over it.
 */
final class Clustering {

  private Clustering() {
  }

  /**
   * A joined cluster, where this member listens so that the node's worker processes can join it, and the
   * key they need for it.
   */
  record Joined(Vertx vertx, String member, ClusterKey key, String nodeId) {

    /** Not clustered: a Vert.x of its own, and a node id of its own. */
    static Joined alone(Vertx vertx) {
      return new Joined(vertx, null, null, UUID.randomUUID().toString());
    }
  }

  /**
   * Joins under {@code key}'s name; with its bus secret, this member's event bus takes only what carries it. Its bus
   * listens on {@code cluster.busPort}, from {@code busPlace} in its range (see {@link BusPort#pick}).
   */
  static Future<Joined> start(JsonObject cluster, ClusterKey key, Path configFile, VertxOptions options,
      NodeMetrics metrics, int busPlace) {
    Config hazelcast;
    try {
      hazelcast = hazelcastConfig(cluster, configFile).setClusterName(key.name());
      JsonObject section = Defaults.section("cluster", cluster);
      options.setEventBusOptions(BusTls.options(section, key.memberSecret() != null)
          .setPort(BusPort.parse(section.getString("busPort")).pick(section.getString("host"), busPlace)));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return manager(hazelcast, key).compose(manager -> metrics.into(Vertx.builder(), options)
        .withClusterManager(manager).buildClustered()
        .onSuccess(vertx -> {
          if (key.busSecret() != null) {
            BusSecret.install(vertx.eventBus(), key.busSecret());
            // Every process of the cluster seals and opens dataset URLs' secrets alike, at every start (see UrlSeal).
            UrlSeal.useSecret(vertx, key.urlSecret());
          } else {
            UrlSeal.noSharedKey(vertx);
          }
          tellWhenMembersLeave(vertx, manager);
          UncertifiedMembers.watch(vertx, manager, options.getEventBusOptions());
        })
        .map(vertx -> new Joined(vertx, member(manager), key, memberId(manager))))
        .recover(e -> Future.failedFuture(new IllegalStateException("Cannot join the cluster '"
            + shown(key.name()) + "' on " + cluster.getString("host") + ": " + e.getMessage(), e)));
  }

  /**
   * A private cluster's members prove at every connection that the node started them (its name is no lock: a
   * program that learns it is still refused), and Hazelcast's lines do not carry the name; a configured cluster's
   * members are the operator's, and its bus runs TLS.
   */
  private static Future<HazelcastClusterManager> manager(Config hazelcast, ClusterKey key) {
    if (key.memberSecret() == null) {
      return Future.succeededFuture(new HazelcastClusterManager(hazelcast));
    }
    hazelcast.setProperty("hazelcast.logging.details.enabled", "false");
    return PrivateClusterManager.start(hazelcast, key.memberSecret());
  }

  /**
   * Tells this node's verticles ({@link Addresses#CLUSTER_MEMBER_LEFT}) of every member that leaves, by the id it
   * went by: a node's id is its member's id (see {@link Joined#nodeId()}).
   */
  private static void tellWhenMembersLeave(Vertx vertx, HazelcastClusterManager manager) {
    Departures.listen(manager, member -> {
      MembersLeaving.publish(vertx.eventBus(), member);
      StaleRegistrations.sweepAfterDeparture(vertx, manager);
    });
  }

  /** A private cluster's name is a secret: an error message names only what it starts with. */
  private static String shown(String name) {
    return name.startsWith("quarry-local-") ? "quarry-local-…" : name;
  }

  /** The Hazelcast member's id, as its membership events name it (Vert.x's own node id is another). */
  static String memberId(HazelcastClusterManager manager) {
    return manager.getHazelcastInstance().getCluster().getLocalMember().getUuid().toString();
  }

  private static String member(HazelcastClusterManager manager) {
    var address = manager.getHazelcastInstance().getCluster().getLocalMember().getAddress();
    return address.getHost() + ":" + address.getPort();
  }

  /** {@code given}: the cluster section (any setting it lacks has its default). */
  static Config hazelcastConfig(JsonObject given, Path configFile) {
    JsonObject cluster = Defaults.section("cluster", given);
    Path beside = configFile == null ? null : configFile.toAbsolutePath().getParent().resolve("cluster.xml");
    Config config = beside != null && Files.exists(beside) ? read(beside) : BuiltInCluster.config();
    config.setClusterName(cluster.getString("name"));
    config.setLiteMember(cluster.getBoolean("liteMember"));
    config.getNetworkConfig().setPort(cluster.getInteger("port")).setPortAutoIncrement(true);
    config.getNetworkConfig().getInterfaces().setEnabled(true).clear().addInterface(cluster.getString("host"));
    JoinConfig join = config.getNetworkConfig().getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(Arrays.stream(cluster.getString("members").split(","))
        .map(String::strip).filter(m -> !m.isEmpty()).toList());
    config.setProperty("hazelcast.logging.type", "slf4j");
    // Listen on the configured interface only, not on every address of the machine.
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // 0 keeps what cluster.xml (or Hazelcast) says; a node's private cluster with its workers sets them short.
    int heartbeat = cluster.getInteger("heartbeatSeconds");
    int silence = cluster.getInteger("maxNoHeartbeatSeconds");
    if (heartbeat > 0) {
      config.setProperty("hazelcast.heartbeat.interval.seconds", String.valueOf(heartbeat));
    }
    if (silence > 0) {
      config.setProperty("hazelcast.max.no.heartbeat.seconds", String.valueOf(silence));
    }
    return config;
  }

  private static Config read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return new XmlConfigBuilder(in).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
