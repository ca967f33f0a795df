package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FastJsonCodecTest {

  @Test
  @DisplayName("Vert.x encodes and decodes JSON with Quarry's codec, not its own through jackson-databind")
  void vertxUsesIt() {
    assertThat(Json.CODEC).isInstanceOf(FastJsonCodec.class);
  }

  @Test
  @DisplayName("every double survives encoding and decoding bit for bit, as text and as a buffer")
  void doublesRoundTrip() {
    JsonArray values = new JsonArray().add(0.1).add(1.0 / 3).add(2e-3).add(-0.0).add(Double.MIN_VALUE)
        .add(Double.MIN_NORMAL).add(Double.MAX_VALUE).add(1e21).add(1e23).add(9007199254740993.0).add(5e-324)
        .add(2.2250738585072012e-308).add(123456789.123456789);
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < 20_000; i++) {
      double d = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(d)) {
        values.add(d);
      }
      values.add(random.nextDouble() * Math.pow(10, random.nextInt(-20, 20)));
    }
    JsonArray fromText = new JsonArray(values.encode());
    JsonArray fromBuffer = new JsonArray(values.toBuffer());
    for (int i = 0; i < values.size(); i++) {
      long bits = Double.doubleToRawLongBits(values.getDouble(i));
      assertThat(Double.doubleToRawLongBits(fromText.getDouble(i))).as("value %s", values.getDouble(i)).isEqualTo(bits);
      assertThat(Double.doubleToRawLongBits(fromBuffer.getDouble(i))).as("value %s", values.getDouble(i))
          .isEqualTo(bits);
    }
    assertThat(new JsonArray().add(0.1).add(1e21).encode()).isEqualTo("[0.1,1.0E21]");
  }

  @Test
  @DisplayName("what Vert.x's codec reads and writes, this one does the same way: comments, big and small numbers,"
      + " instants and bytes (RFC 7493), nesting, pretty printing")
  void asVertxDoes() {
    JsonObject read = new JsonObject("{ /* a configuration file's comment */ \"port\": 8080, // and another\n"
        + " \"big\": 12345678901234, \"huge\": 123456789012345678901234567890, \"ok\": true, \"none\": null,"
        + " \"list\": [1, \"two\", {\"three\": 3.5}] }");
    assertThat(read.getInteger("port")).isEqualTo(8080);
    assertThat(read.getLong("big")).isEqualTo(12345678901234L);
    assertThat(read.getValue("huge")).hasToString("123456789012345678901234567890");
    assertThat(read.getJsonArray("list").getJsonObject(2).getDouble("three")).isEqualTo(3.5);
    assertThat(read.containsKey("none")).isTrue();

    JsonObject written = new JsonObject().put("at", Instant.parse("2026-12-03T10:00:00Z"))
        .put("bytes", new byte[] {1, 2, 3}).put("buffer", Buffer.buffer("hi"));
    assertThat(written.encode())
        .isEqualTo("{\"at\":\"2026-12-03T10:00:00Z\",\"bytes\":\"AQID\",\"buffer\":\"aGk\"}");
    assertThat(new JsonObject(written.toBuffer())).isEqualTo(new JsonObject(written.encode()));
    assertThat(new JsonObject().put("a", 1).encodePrettily()).contains("\n").contains("\"a\" : 1");
  }

  @Test
  @DisplayName("a value JSON cannot hold is refused clearly when encoded, not written as a bean's fields")
  void noBeans() {
    record Point(int x, int y) {
    }
    JsonObject holding = new JsonObject().put("point", new Point(1, 2));
    assertThatThrownBy(holding::encode).isInstanceOf(EncodeException.class).hasMessageContaining("Point");
  }
}
