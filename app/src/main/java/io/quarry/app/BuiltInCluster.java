package io.quarry.app;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MultiMapConfig;
import com.hazelcast.config.NetworkConfig;
import java.util.List;

/**
 * The Hazelcast configuration of a process with no {@code cluster.xml} beside its configuration file: what
 * {@code conf/cluster.xml} says (the file operators copy and edit), built in code. Parsing and validating that XML took
 * about half a second of every node's and every worker process's start.
 */
final class BuiltInCluster {

  private BuiltInCluster() {
  }

  static Config config() {
    Config config = new Config().setClusterName("quarry");
    config.setProperty("hazelcast.logging.type", "slf4j");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.setProperty("hazelcast.wait.seconds.before.join", "0");
    config.setProperty("hazelcast.shutdownhook.enabled", "false");
    // Its health monitor reads the system's and the collector's figures every 20 s to log when they pass 70 %, which
    // Quarry's metrics show: about a fifth of an idle worker's CPU.
    config.setProperty("hazelcast.health.monitoring.level", "OFF");
    // Hazelcast's own metrics feed its Management Center and JMX, which Quarry does not use (its metrics are
    // Prometheus's): gathered every 5 s, they were a quarter of an idle node's and an idle worker's CPU.
    config.getMetricsConfig().setEnabled(false);
    NetworkConfig network = config.getNetworkConfig().setPort(5701).setPortAutoIncrement(true).setPortCount(100);
    JoinConfig join = network.getJoin();
    join.getAutoDetectionConfig().setEnabled(false);
    join.getMulticastConfig().setEnabled(false);
    join.getTcpIpConfig().setEnabled(true).setMembers(List.of("127.0.0.1"));
    network.getInterfaces().setEnabled(true).setInterfaces(List.of("127.0.0.1"));
    // Vert.x's own structures, with a backup each: a member that dies loses none of the others' registrations.
    config.addMultiMapConfig(new MultiMapConfig("__vertx.subs").setBackupCount(1)
        .setValueCollectionType(MultiMapConfig.ValueCollectionType.SET));
    config.addMapConfig(new MapConfig("__vertx.haInfo").setBackupCount(1));
    config.addMapConfig(new MapConfig("__vertx.nodeInfo").setBackupCount(1));
    return config;
  }
}
