package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class QueryTimeoutsTest {

  @Test
  @DisplayName("every wait derives from the one timeout, each hop waiting longer than the hop below it")
  void derived() {
    QueryTimeouts t = new QueryTimeouts(60_000);
    assertThat(QueryTimeouts.memberWaitMs(60_000)).isEqualTo(65_000);
    assertThat(t.workerWaitMs()).isEqualTo(70_000).isGreaterThan(QueryTimeouts.memberWaitMs(60_000));
    assertThat(t.datasetWaitMs()).isEqualTo(140_000);
    assertThat(t.connectionIdleMs(120_000)).isEqualTo(120_000);
    assertThat(new QueryTimeouts(200_000).connectionIdleMs(120_000)).isEqualTo(230_000);
  }

  @Test
  @DisplayName("a query asking for more than the limit is held to it; one naming none gets it")
  void limit() {
    QueryTimeouts t = new QueryTimeouts(5_000);
    assertThat(t.limit(0)).isEqualTo(5_000);
    assertThat(t.limit(700)).isEqualTo(700);
    assertThat(t.limit(9_000)).isEqualTo(5_000);
  }

  @Test
  @DisplayName("read from a role's query section, the shipped default when it has none")
  void fromConfig() {
    assertThat(QueryTimeouts.from(new JsonObject()).queryMs()).isEqualTo(60_000);
    assertThat(QueryTimeouts.from(new JsonObject().put("query", new JsonObject().put("timeoutMs", 700))).queryMs())
        .isEqualTo(700);
    assertThatThrownBy(() -> new QueryTimeouts(0)).hasMessage("query.timeoutMs must be at least 1 (it is 0)");
  }
}
