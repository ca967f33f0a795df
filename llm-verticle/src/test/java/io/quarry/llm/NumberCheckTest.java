package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NumberCheckTest {

  static final NumberCheck.Values SALES = new NumberCheck.Values("r1", List.of("region", "revenue", "share", "orders"),
      new JsonArray()
          .add(new JsonArray().add("North").add(146284726.86).add(0.4523).add(30595))
          .add(new JsonArray().add("South").add("1234567.5").add(0.2).add(61387)),
      400);

  private static JsonObject check(String answer) {
    return NumberCheck.check(answer, List.of(SALES));
  }

  @Test
  @DisplayName("numbers as the data has them, with thousands separators or not, are matched to their cells")
  void exact() {
    JsonObject numbers = check("North made 146,284,726.86 over 30595 orders.");
    assertThat(numbers.getInteger("checked")).isEqualTo(2);
    assertThat(numbers.getInteger("matched")).isEqualTo(2);
    assertThat(numbers.getJsonArray("unmatched")).isEmpty();
    JsonObject cell = numbers.getJsonArray("cells").getJsonObject(0);
    assertThat(cell.getString("text")).isEqualTo("146,284,726.86");
    assertThat(cell.getInteger("position")).isEqualTo(11);
    assertThat(cell.getString("result_id")).isEqualTo("r1");
    assertThat(cell.getInteger("row")).isZero();
    assertThat(cell.getString("column")).isEqualTo("revenue");
  }

  @Test
  @DisplayName("rounded to the precision shown, a percentage of a ratio, and K/M/B abbreviations match")
  void roundedAndScaled() {
    JsonObject numbers = check("Revenue was about 146,284,727 (146.3M, or 0.15B; South 1.2 million), North had"
        + " 45% of it (45.2 %), and 61.4K orders went south.");
    assertThat(numbers.getJsonArray("unmatched")).as(numbers.encodePrettily()).isEmpty();
    assertThat(numbers.getInteger("matched")).isEqualTo(7);
  }

  @Test
  @DisplayName("a wrong number is reported with its text and position, quietly; a row count is a value too")
  void wrong() {
    JsonObject numbers = check("The query returned 400 rows; North made 146.9M.");
    assertThat(numbers.getInteger("checked")).isEqualTo(2);
    assertThat(numbers.getInteger("matched")).isEqualTo(1);
    assertThat(numbers.getJsonArray("unmatched").getJsonObject(0))
        .isEqualTo(new JsonObject().put("text", "146.9M").put("position", 40));
  }

  @Test
  @DisplayName("code, list markers and numbers inside words are not claims about the data")
  void notClaims() {
    JsonObject numbers = check("1. From table1 `SELECT 99 FROM t`:\n```sql\nSELECT 7\n```\n2. Q3 was good.");
    assertThat(numbers.getInteger("checked")).isZero();
  }
}
