package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a scheduled run says changed since the run before. */
class RunComparisonTest {

  private static JsonArray columns(String... nameTypes) {
    JsonArray columns = new JsonArray();
    for (int i = 0; i < nameTypes.length; i += 2) {
      columns.add(new JsonObject().put("name", nameTypes[i]).put("type", nameTypes[i + 1]));
    }
    return columns;
  }

  private static JsonArray rows(Object[]... rows) {
    JsonArray all = new JsonArray();
    for (Object[] row : rows) {
      all.add(new JsonArray(java.util.Arrays.asList(row)));
    }
    return all;
  }

  private static final JsonArray ONE = columns("region", "VARCHAR", "amount", "INTEGER");

  @Test
  @DisplayName("three rows added to four: '3 rows added, total 1,204 → 1,377', the totals whole numbers")
  void rowsAdded() {
    JsonArray before = rows(new Object[] {"east", 302}, new Object[] {"north", 300}, new Object[] {"south", 301},
        new Object[] {"west", 301});
    JsonArray after = before.copy().add(new JsonArray().add("centre").add(50)).add(new JsonArray().add("harbour")
        .add(60)).add(new JsonArray().add("island").add(63));
    JsonObject c = RunComparison.compare(ONE, before, ONE, after);
    assertThat(c.getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
    assertThat(c.getInteger("added")).isEqualTo(3);
    JsonObject moved = c.getJsonArray("moved").getJsonObject(0);
    assertThat(moved.getValue("before")).isEqualTo(1204L);
    assertThat(moved.getValue("after")).isEqualTo(1377L);
    assertThat(moved.getValue("change")).isEqualTo(173L);
    assertThat(new JsonObject(c.encode()).getJsonArray("moved").getJsonObject(0).encode())
        .isEqualTo("{\"column\":\"amount\",\"before\":1204,\"after\":1377,\"change\":173}");
  }

  @Test
  @DisplayName("a row removed, one changed, two numeric columns named; decimals shown to three places; nothing"
      + " moved is 'no change'; the first run says it has nothing to compare with")
  void removedChangedNamed() {
    JsonArray two = columns("region", "VARCHAR", "amount", "DECIMAL(10,2)", "units", "BIGINT");
    JsonArray before = rows(new Object[] {"east", "1000.50", 2}, new Object[] {"west", "10.25", 1});
    JsonArray after = rows(new Object[] {"east", "1200.75", 2});
    JsonObject c = RunComparison.compare(two, before, two, after);
    assertThat(c.getString("summary")).isEqualTo("1 row removed, 1 row changed, amount total 1,010.75 → 1,200.75,"
        + " units total 3 → 2");
    assertThat(RunComparison.compare(two, after, two, after).getString("summary")).isEqualTo("no change");
    assertThat(RunComparison.first(two, after).getString("summary"))
        .isEqualTo("First run: nothing to compare with yet (1 row)");
  }

  @Test
  @DisplayName("with no text column rows are compared by position, and equal rows stay two")
  void positional() {
    JsonArray n = columns("total", "HUGEINT");
    assertThat(RunComparison.compare(n, rows(new Object[] {5}), n, rows(new Object[] {5}, new Object[] {5}))
        .getString("summary")).isEqualTo("1 row added, total 5 → 10");
    assertThat(RunComparison.isNumeric("DOUBLE")).isTrue();
    assertThat(RunComparison.isNumeric("VARCHAR")).isFalse();
    assertThat(RunComparison.isNumeric("DATE")).isFalse();
  }
}
