package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.FastJsonCodec;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

  @Test
  @DisplayName("a Quarry process encodes JSON with Quarry's codec (the app module registers it), fast doubles and all,"
      + " not with Vert.x's through jackson-databind")
  void quarrysOwn() {
    assertThat(Json.CODEC).isInstanceOf(FastJsonCodec.class);
    assertThat(new JsonArray(new JsonArray().add(0.1).add(1.0 / 3).encode()).getDouble(1)).isEqualTo(1.0 / 3);
  }
}
