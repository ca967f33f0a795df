package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.EncodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Quarry's codec, as Quarry's processes use it (the app module registers it: app-tests checks that it is Vert.x's
 * there). This module's own JVM keeps Vert.x's codec, as an application that uses the contract does.
 */
class FastJsonCodecTest {

  private static final FastJsonCodec CODEC = FastJsonCodec.INSTANCE;

  private static String encode(Object value) {
    return CODEC.toString(value, false);
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
    JsonArray fromText = new JsonArray(CODEC.fromString(encode(values), java.util.List.class));
    JsonArray fromBuffer = new JsonArray(CODEC.fromBuffer(CODEC.toBuffer(values, false), java.util.List.class));
    for (int i = 0; i < values.size(); i++) {
      long bits = Double.doubleToRawLongBits(values.getDouble(i));
      assertThat(Double.doubleToRawLongBits(fromText.getDouble(i))).as("value %s", values.getDouble(i)).isEqualTo(bits);
      assertThat(Double.doubleToRawLongBits(fromBuffer.getDouble(i))).as("value %s", values.getDouble(i))
          .isEqualTo(bits);
    }
    assertThat(encode(new JsonArray().add(0.1).add(1e21))).isEqualTo("[0.1,1.0E21]");
  }

  @Test
  @DisplayName("what Vert.x's codec reads and writes, this one does the same way: comments, big and small numbers,"
      + " instants and bytes (RFC 7493), nesting, pretty printing")
  void asVertxDoes() {
    JsonObject read = new JsonObject(CODEC.fromString("{ /* a configuration file's comment */ \"port\": 8080, // and"
        + " another\n \"big\": 12345678901234, \"huge\": 123456789012345678901234567890, \"ok\": true, \"none\":"
        + " null, \"list\": [1, \"two\", {\"three\": 3.5}] }", java.util.Map.class));
    assertThat(read.getInteger("port")).isEqualTo(8080);
    assertThat(read.getLong("big")).isEqualTo(12345678901234L);
    assertThat(read.getValue("huge")).hasToString("123456789012345678901234567890");
    assertThat(read.getJsonArray("list").getJsonObject(2).getDouble("three")).isEqualTo(3.5);
    assertThat(read.containsKey("none")).isTrue();

    JsonObject written = new JsonObject().put("at", Instant.parse("2026-12-03T10:00:00Z"))
        .put("bytes", new byte[] {1, 2, 3}).put("buffer", Buffer.buffer("hi"));
    assertThat(encode(written)).isEqualTo(written.encode())
        .isEqualTo("{\"at\":\"2026-12-03T10:00:00Z\",\"bytes\":\"AQID\",\"buffer\":\"aGk\"}");
    assertThat(CODEC.toBuffer(written, false)).isEqualTo(written.toBuffer());
    assertThat(CODEC.toString(new JsonObject().put("a", 1), true)).contains("\n").contains("\"a\" : 1");
    JsonObject nested = new JsonObject().put("n", new JsonArray().add(1).add(2L).add((short) 3).add(4.5f)
        .add(new java.math.BigDecimal("6.70")).add(java.math.BigInteger.TEN.pow(30)).add(false)
        .addNull().add(new JsonObject().put("k", "v")).add(java.util.Map.of("m", java.util.List.of("x"))));
    assertThat(encode(nested)).as("as Vert.x's own codec writes it").isEqualTo(nested.encode());
  }

  @Test
  @DisplayName("a value JSON cannot hold is refused clearly when encoded, not written as a bean's fields")
  void noBeans() {
    record Point(int x, int y) {
    }
    JsonObject holding = new JsonObject().put("point", new Point(1, 2));
    assertThatThrownBy(() -> encode(holding)).isInstanceOf(EncodeException.class).hasMessageContaining("Point");
  }

  @Test
  @DisplayName("a result's rows are written as the text they are, by this codec as by Vert.x's own")
  void rowsAsTheyAre() {
    JsonObject result = new JsonObject().put("id", "r1").put("rows", RowsJson.text("[[1,\"a\"],[2,null]]"));
    assertThat(encode(result)).isEqualTo("{\"id\":\"r1\",\"rows\":[[1,\"a\"],[2,null]]}")
        .isEqualTo(result.encode());
  }
}
