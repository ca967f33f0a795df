package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.jackson.DatabindCodec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FastJsonNumbersTest {

  @Test
  @DisplayName("with the fast number codecs on, every double survives encoding and decoding bit for bit")
  void doublesRoundTrip() {
    FastJsonNumbers.enable();
    assertThat(DatabindCodec.mapper().getFactory().isEnabled(JsonGenerator.Feature.USE_FAST_DOUBLE_WRITER)).isTrue();
    assertThat(DatabindCodec.mapper().getFactory().isEnabled(JsonParser.Feature.USE_FAST_DOUBLE_PARSER)).isTrue();

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
    JsonArray back = new JsonArray(values.encode());
    for (int i = 0; i < values.size(); i++) {
      assertThat(Double.doubleToRawLongBits(back.getDouble(i)))
          .as("value %s", values.getDouble(i))
          .isEqualTo(Double.doubleToRawLongBits(values.getDouble(i)));
    }
    assertThat(new JsonArray().add(0.1).add(1e21).encode()).isEqualTo("[0.1,1.0E21]");
  }
}
