package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.worker.pool.ClusterKey;
import io.quarry.worker.pool.LocalWorkersConfig;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Where each role runs: DuckDB never in a process that serves HTTP, runs LLM turns or owns SQLite. */
class PlanTest {

  private static Plan plan(String... argv) {
    return plan(Map.of(), argv);
  }

  private static Plan plan(Map<String, String> env, String... argv) {
    return Plan.of(Args.parse(argv), ConfigLoader.load(java.nio.file.Path.of("absent.json"), env));
  }

  @Test
  @DisplayName("the default node supervises two worker processes on a private loopback cluster")
  void defaultMode() {
    Plan plan = plan();
    assertThat(plan.inProcess()).containsExactly(Role.STORAGE, Role.DATASET, Role.LLM, Role.WEB);
    assertThat(plan.localWorkers()).isEqualTo(2);
    assertThat(plan.runsQueries()).as("a node that only supervises never loads DuckDB").isFalse();
    assertThat(plan.clustered()).isTrue();
    assertThat(plan.privateCluster()).isTrue();
    assertThat(plan.labels()).containsExactly("storage", "worker", "dataset", "llm", "web");
    JsonObject configured = new JsonObject().put("name", "quarry").put("members", "10.0.0.1");
    JsonObject cluster = plan.cluster(configured);
    assertThat(cluster.getString("host")).isEqualTo("127.0.0.1");
    assertThat(cluster.getString("members")).isEmpty();
    ClusterKey key = plan.key(configured, null, () -> "the data directory's url key");
    ClusterKey another = plan.key(configured, null, () -> "the data directory's url key");
    assertThat(key.name()).startsWith("quarry-local-").hasSizeGreaterThan(50).isNotEqualTo(another.name());
    assertThat(key.busSecret()).hasSizeGreaterThan(40).isNotEqualTo(another.busSecret()).isNotEqualTo(key.name());
    assertThat(key.memberSecret()).hasSizeGreaterThan(40).isNotEqualTo(another.memberSecret())
        .isNotIn(key.name(), key.busSecret());
    assertThat(key.urlSecret()).as("kept across starts, unlike the rest").isEqualTo(another.urlSecret())
        .isEqualTo("the data directory's url key");
  }

  @Test
  @DisplayName("a clustered front node supervises its workers inside the configured cluster")
  void clusteredFront() {
    Plan plan = plan("--cluster");
    assertThat(plan.localWorkers()).isEqualTo(2);
    assertThat(plan.privateCluster()).isFalse();
    JsonObject configured = new JsonObject().put("name", "quarry").put("members", "10.0.0.1");
    assertThat(plan.cluster(configured)).isEqualTo(configured);
    assertThat(plan.key(configured, null, () -> {
      throw new AssertionError("a configured cluster's members share no url key");
    })).isEqualTo(ClusterKey.named("quarry"));
  }

  @Test
  @DisplayName("a worker-only node (or a worker process) runs DuckDB itself")
  void workerNodes() {
    assertThat(plan("--roles", "worker", "--cluster").inProcess()).containsExactly(Role.WORKER);
    assertThat(plan("--roles", "worker", "--cluster").localWorkers()).isZero();
    assertThat(plan("--roles", "worker", "--cluster").runsQueries()).isTrue();
    assertThat(plan("--roles", "dataset,worker").inProcess()).containsExactly(Role.WORKER, Role.DATASET);
    Plan child = plan("--roles", "worker", "--cluster", "--supervisor", "node/w1");
    assertThat(child.inProcess()).containsExactly(Role.WORKER);
    assertThat(child.supervisor()).isEqualTo("node/w1");
    assertThat(child.runsQueries()).as("so it loads DuckDB's library while it joins its node's cluster").isTrue();
  }

  @Test
  @DisplayName("--local-workers and QUARRY_LOCAL_WORKERS set the count; 0 leaves the node without a worker and unclustered")
  void counts() {
    assertThat(plan("--local-workers", "3").localWorkers()).isEqualTo(3);
    assertThat(plan(Map.of("QUARRY_LOCAL_WORKERS", "1")).localWorkers()).isEqualTo(1);
    Plan none = plan("--local-workers", "0");
    assertThat(none.localWorkers()).isZero();
    assertThat(none.clustered()).isFalse();
    assertThat(none.runsQueries()).isFalse();
    assertThat(none.labels()).containsExactly("storage", "dataset", "llm", "web");
    assertThat(plan("--roles", "web,llm").labels()).containsExactly("llm", "web");
  }

  @Test
  @DisplayName("--local-workers takes 0 to 64; anything else is refused with the range")
  void countLimits() {
    assertThat(plan("--local-workers", "64").localWorkers()).isEqualTo(64);
    for (String bad : List.of("65", "-1", "two")) {
      assertThatThrownBy(() -> Args.parse("--local-workers", bad))
          .hasMessage("--local-workers must be a whole number from 0 to 64, got '" + bad + "'");
    }
  }

  @Test
  @DisplayName("worker process memory settings are checked: the cap must leave room for the heap and native memory")
  void memorySettings() {
    JsonObject section = ConfigLoader.defaults().getJsonObject("localWorkers");
    assertThat(LocalWorkersConfig.from(section.copy().put("heapMb", 64).put("memoryCapMb", 576)).memoryCapMb()).isEqualTo(576);
    assertThatThrownBy(() -> LocalWorkersConfig.from(section.copy().put("heapMb", 64).put("memoryCapMb", 575)))
        .hasMessage("localWorkers.memoryCapMb must be 0 (no cap) or at least heapMb + 512 (576), got 575");
    assertThat(LocalWorkersConfig.from(section.copy().put("memoryCapMb", 0)).memoryCapMb()).isZero();
    assertThatThrownBy(() -> LocalWorkersConfig.from(section.copy().put("heapMb", 63)))
        .hasMessage("localWorkers.heapMb must be at least 64, got 63");
    assertThat(LocalWorkersConfig.from(section.copy().put("count", 64)).count()).isEqualTo(64);
    assertThatThrownBy(() -> LocalWorkersConfig.from(section.copy().put("count", 65)))
        .hasMessage("localWorkers.count must be from 0 to 64, got 65");
  }

  @Test
  @DisplayName("processes kept warm are 0 or more, and at most localWorkers.count (a node told to run fewer processes"
      + " keeps those warm); the idle stop is 0 (never) or more")
  void warmAndIdleSettings() {
    JsonObject section = ConfigLoader.defaults().getJsonObject("localWorkers");
    assertThat(LocalWorkersConfig.from(section.copy()).keepWarm()).isZero();
    assertThat(LocalWorkersConfig.from(section.copy()).idleStopMs()).isEqualTo(300_000);
    assertThat(LocalWorkersConfig.from(section.copy().put("count", 3).put("keepWarm", 3)).keepWarm()).isEqualTo(3);
    assertThat(LocalWorkersConfig.from(section.copy().put("count", 3).put("keepWarm", 4)).keepWarm()).isEqualTo(3);
    assertThat(LocalWorkersConfig.from(section.copy().put("count", 0).put("keepWarm", 1)).keepWarm()).isZero();
    assertThatThrownBy(() -> LocalWorkersConfig.from(section.copy().put("keepWarm", -1)))
        .hasMessage("localWorkers.keepWarm must be 0 or more, got -1");
    assertThat(LocalWorkersConfig.from(section.copy().put("idleStopMs", 0)).idleStopMs()).isZero();
    assertThatThrownBy(() -> LocalWorkersConfig.from(section.copy().put("idleStopMs", -1)))
        .hasMessage("localWorkers.idleStopMs must be 0 (never) or more, got -1");
    assertThat(LocalWorkersConfig.from(section.copy().put("keepWarm", 2)).withCount(1).keepWarm()).isEqualTo(1);
  }
}
