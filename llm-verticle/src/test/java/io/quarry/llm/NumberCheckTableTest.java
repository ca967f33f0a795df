package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The number check's specification: answer sentences in the styles of both providers (Gemini's terse markdown, GPT's
 * "Based on the results" prose, bullets, markdown tables, currency, dates, percentages, rounding, ids), each with the
 * results it is checked against and the verdict for every number in it, in order — {@code "<column> row <n>"} (found,
 * 1-based), {@code "row count"}, {@code "several <count>"}, {@code "not found"} or {@code "not checked"}. The table is
 * {@code number-check-cases.json}; a number the check reports that the table does not list fails its case.
 */
class NumberCheckTableTest {

  static Stream<Named<JsonObject>> cases() throws IOException {
    JsonObject table = table();
    return table.getJsonArray("cases").stream().map(c -> (JsonObject) c)
        .map(c -> Named.of(c.getString("name"), c.copy().put("fixtures", table.getJsonObject("results"))));
  }

  static JsonObject table() throws IOException {
    try (InputStream in = NumberCheckTableTest.class.getResourceAsStream("/number-check-cases.json")) {
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  /** The results a case is checked against. */
  static List<NumberCheck.Values> results(JsonObject c) {
    List<NumberCheck.Values> results = new ArrayList<>();
    for (Object name : c.getJsonArray("results")) {
      JsonObject r = c.getJsonObject("fixtures").getJsonObject((String) name);
      results.add(new NumberCheck.Values(r.getString("id"), r.getJsonArray("columns").stream().map(String.class::cast)
          .toList(), r.getJsonArray("rows"), r.getLong("total_rows"), r.getString("sql")));
    }
    return results;
  }

  /** The check's verdicts by position, in the table's words. */
  static Map<Integer, String> verdicts(JsonObject numbers) {
    Map<Integer, String> verdicts = new TreeMap<>();
    for (Object o : numbers.getJsonArray("cells")) {
      JsonObject cell = (JsonObject) o;
      verdicts.put(cell.getInteger("position"), cell.getString("text") + ": " + (cell.getInteger("row") < 0
          ? "row count" : cell.getString("column") + " row " + (cell.getInteger("row") + 1)));
    }
    for (Object o : numbers.getJsonArray("several", new JsonArray())) {
      JsonObject several = (JsonObject) o;
      verdicts.put(several.getInteger("position"), several.getString("text") + ": several " + several.getInteger("count"));
    }
    for (Object o : numbers.getJsonArray("unmatched")) {
      JsonObject unmatched = (JsonObject) o;
      verdicts.put(unmatched.getInteger("position"), unmatched.getString("text") + ": not found");
    }
    return verdicts;
  }

  /** The table's verdicts and the check's, number by number; what the check reports beyond the table is added. */
  static List<List<String>> compare(JsonObject c, JsonObject numbers) {
    String answer = c.getString("answer");
    Map<Integer, String> reported = verdicts(numbers);
    List<String> expected = new ArrayList<>();
    List<String> actual = new ArrayList<>();
    int cursor = 0;
    for (Object o : c.getJsonArray("expect")) {
      JsonArray e = (JsonArray) o;
      String text = e.getString(0);
      int at = answer.indexOf(text, cursor);
      assertThat(at).as("'%s' is in the answer after position %d", text, cursor).isNotNegative();
      expected.add(text + ": " + e.getString(1));
      String verdict = reported.remove(at);
      actual.add(verdict == null ? text + ": not checked" : verdict);
      cursor = at + text.length();
    }
    reported.forEach((at, verdict) -> actual.add(verdict + " (at " + at + ", not in the table)"));
    return List.of(expected, actual);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void eachNumberGetsItsVerdict(JsonObject c) {
    JsonObject numbers = NumberCheck.check(c.getString("answer"), c.getString("question"), results(c));
    List<List<String>> compared = compare(c, numbers);
    assertThat(compared.get(1)).as(c.getString("answer")).isEqualTo(compared.get(0));
    long checked = compared.get(0).stream().filter(v -> !v.endsWith(": not checked")).count();
    assertThat(numbers.getInteger("checked")).isEqualTo((int) checked);
  }
}
