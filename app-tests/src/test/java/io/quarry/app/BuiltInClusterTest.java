package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.config.ConfigXmlGenerator;
import com.hazelcast.config.XmlConfigBuilder;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.quarry.testing.JarCommand;
import io.vertx.core.json.JsonObject;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Hazelcast configuration built in is conf/cluster.xml's, and a cluster.xml beside the configuration replaces it. */
class BuiltInClusterTest {

  static final Path TEMPLATE = Path.of("..", "conf", "cluster.xml");

  @TempDir
  Path dir;

  @Test
  @DisplayName("the built-in configuration says what conf/cluster.xml says, setting for setting")
  void sameAsTheTemplate() throws Exception {
    Config parsed;
    try (InputStream in = Files.newInputStream(TEMPLATE)) {
      parsed = new XmlConfigBuilder(in).build();
    }
    assertThat(xml(BuiltInCluster.config())).isEqualTo(xml(parsed));
  }

  @Test
  @DisplayName("a cluster.xml beside the configuration file is read instead (a setting only it has shows), with "
      + "Quarry's cluster section set over it")
  void fileBesideWins() throws Exception {
    String template = Files.readString(TEMPLATE);
    Files.writeString(dir.resolve("cluster.xml"), template.replace("<backup-count>1</backup-count>\n"
        + "    <value-collection-type>", "<backup-count>2</backup-count>\n    <value-collection-type>"));
    JsonObject section = new JsonObject().put("name", "ours").put("host", "127.0.0.1").put("members", "127.0.0.1:5801");
    Config beside = Clustering.hazelcastConfig(section, dir.resolve("config.json"));
    assertThat(beside.getMultiMapConfig("__vertx.subs").getBackupCount()).isEqualTo(2);
    assertThat(beside.getClusterName()).isEqualTo("ours");
    assertThat(beside.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:5801");

    Config builtIn = Clustering.hazelcastConfig(section, dir.resolve("elsewhere").resolve("config.json"));
    assertThat(builtIn.getMultiMapConfig("__vertx.subs").getBackupCount()).isEqualTo(1);
    assertThat(builtIn.getClusterName()).isEqualTo("ours");
  }

  @Test
  @DisplayName("a member of the built-in configuration runs no health monitor (its threads are there, that one is not)")
  void noHealthMonitor() {
    Config config = BuiltInCluster.config().setClusterName("quarry-" + UUID.randomUUID())
        .setInstanceName("health-" + UUID.randomUUID());
    config.getNetworkConfig().setPort(JarCommand.freePort()).setPortAutoIncrement(false).getJoin().getTcpIpConfig()
        .setMembers(List.of());
    HazelcastInstance member = Hazelcast.newHazelcastInstance(config);
    try {
      List<String> threads = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
          .filter(name -> name.startsWith("hz." + member.getName() + ".")).toList();
      assertThat(threads).isNotEmpty().noneMatch(name -> name.contains("HealthMonitor"));
    } finally {
      member.shutdown();
    }
  }

  private static String xml(Config config) {
    return new ConfigXmlGenerator(true, false).generate(config);
  }
}
