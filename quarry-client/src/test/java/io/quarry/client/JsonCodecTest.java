package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.FastJsonCodec;
import io.quarry.bus.RowsJson;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

  @Test
  @DisplayName("an application that uses the client keeps Vert.x's own JSON codec (its objects still map), and a"
      + " result's rows still encode as the text they are")
  void applicationsKeepTheirs() {
    assertThat(Json.CODEC).isNotInstanceOf(FastJsonCodec.class);
    record Point(int x, int y) {
    }
    assertThat(JsonObject.mapFrom(new Point(1, 2)).encode()).isEqualTo("{\"x\":1,\"y\":2}");
    assertThat(new JsonObject().put("rows", RowsJson.text("[[1]]")).encode()).isEqualTo("{\"rows\":[[1]]}");
  }
}
