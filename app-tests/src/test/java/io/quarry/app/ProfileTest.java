package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.quarry.testing.TextFixtures;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 item 5: {@code GET /api/conversations/:id/datasets/:did/profile}. Its figures are DuckDB's {@code SUMMARIZE}
 * over the same bytes (rows, and per column min, max, approx_unique and null_percentage), for a Parquet file of several
 * row groups and for a CSV file; what the footer's statistics hold is read with no scan, within a byte budget
 * ({@code dataset.profileMaxBytes}, 1 MB here) that leaves a large column unscanned and says so.
 */
class ProfileTest extends ChatTestBase {

  private static final long BUDGET = 1_000_000;

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_DATASET_PROFILE_MAX_BYTES", String.valueOf(BUDGET));
  }

  /** Every type a footer's statistics serve, and some they do not (double, list), with nulls, in 3 row groups. */
  private static final String MIXED = "SELECT i AS id, CASE WHEN i % 7 = 0 THEN NULL ELSE 'city ' || (i % 40) END"
      + " AS city, (i * 1.25)::DECIMAL(10,2) AS price, TIMESTAMP '2024-01-01' + to_hours(i) AS at,"
      + " DATE '2020-01-01' + (i % 500)::INTEGER AS day, i % 3 = 0 AS flag, CASE WHEN i % 5 = 0 THEN NULL ELSE i / 7.0"
      + " END AS ratio, [i, i % 4] AS pair FROM range(3000) t(i)";

  private JsonObject profile(String datasetId, String query) {
    HttpResponse<Buffer> response = profileResponse(datasetId, query);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject();
  }

  private HttpResponse<Buffer> profileResponse(String datasetId, String query) {
    return chat.send(HttpMethod.GET, "/api/conversations/" + conversation + "/datasets/" + datasetId + "/profile"
        + query, null);
  }

  @Test
  @DisplayName("a Parquet file's profile is SUMMARIZE's; nulls, min and max of ordered types come from the footer")
  void parquetAgreesWithSummarize() throws Exception {
    Path file = dir.resolve("mixed.parquet");
    ParquetFixtures.create(file, MIXED, 1_000);
    chat.files.route("/mixed.parquet").file(file);
    JsonObject dataset = chat.addDataset(conversation, "/mixed.parquet");
    JsonObject profile = profile(dataset.getString("id"), "");
    agreesWithSummarize(profile, "read_parquet(" + literal(file) + ")");
    Map<String, JsonObject> columns = byName(profile);
    for (String footer : Set.of("id", "city", "price", "at", "day", "flag")) {
      assertThat(columns.get(footer).getBoolean("from_statistics")).as(footer).isTrue();
    }
    assertThat(columns.get("ratio").getBoolean("from_statistics")).as("a double's NaN is not in its statistics")
        .isFalse();
    assertThat(columns.get("pair").getBoolean("from_statistics")).isFalse();
    assertThat(columns.get("city").getLong("nulls")).isEqualTo(429);
    assertThat(columns.get("city").getBoolean("distinct_estimated")).isTrue();
    assertThat(profile.containsKey("note")).isFalse();
  }

  @Test
  @DisplayName("a CSV file's profile is SUMMARIZE's over read_csv of the same bytes")
  void csvAgreesWithSummarize() throws Exception {
    byte[] csv = TextFixtures.csv();
    Path file = dir.resolve("cities.csv");
    Files.write(file, csv);
    chat.files.route("/cities.csv").content(csv);
    JsonObject dataset = chat.addDataset(conversation, "/cities.csv");
    agreesWithSummarize(profile(dataset.getString("id"), ""), "read_csv(" + literal(file) + ")");
  }

  @Test
  @DisplayName("a column past the byte budget is not scanned: the footer's nulls, min and max stand, its distinct is"
      + " not computed and the note says why; top values and a histogram on demand")
  void budgetAndTop() throws Exception {
    Path file = dir.resolve("wide.parquet");
    ParquetFixtures.create(file, "SELECT i AS n, i % 10 AS digit, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS"
        + " digest FROM range(60000) t(i)", 20_000);
    ParquetServer.Route route = chat.files.route("/wide.parquet").file(file);
    JsonObject dataset = chat.addDataset(conversation, "/wide.parquet");
    JsonObject profile = profile(dataset.getString("id"), "");
    JsonObject digest = byName(profile).get("digest");
    assertThat(digest.getBoolean("from_statistics")).isTrue();
    assertThat(digest.getLong("nulls")).isZero();
    assertThat(digest.getString("min")).isEqualTo(summarize("read_parquet(" + literal(file) + ")").get("digest")
        .getString("min"));
    assertThat(digest.getValue("distinct")).isNull();
    assertThat(profile.getString("note")).startsWith("Distinct values of 1 column (digest) were not computed: scanning"
        + " it would read ").contains("past the profile's budget of 976.6 KB");
    assertThat(byName(profile).get("digit").getLong("distinct")).isEqualTo(10);
    long moved = route.rangeBytes();
    assertThat(moved).as("the digest column (about 3.8 MB) was not fetched").isLessThan(BUDGET);

    assertThat(profile(dataset.getString("id"), "")).isEqualTo(profile);

    JsonObject top = profile(dataset.getString("id"), "?top=digit").getJsonObject("top");
    assertThat(top.getString("column")).isEqualTo("digit");
    assertThat(top.getJsonArray("values").getJsonObject(0)).isEqualTo(new JsonObject().put("value", 0)
        .put("count", 6000));
    assertThat(top.getJsonArray("values")).hasSize(10);
    long binned = top.getJsonArray("histogram").stream().mapToLong(b -> ((JsonObject) b).getLong("count")).sum();
    assertThat(binned).isEqualTo(60_000);
    assertThat(profileResponse(dataset.getString("id"), "?top=digest").statusCode()).isEqualTo(413);
    assertThat(profileResponse(dataset.getString("id"), "?top=nope").statusCode()).isEqualTo(404);
    assertThat(profileResponse("no-such-dataset", "").statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("a profile another conversation was computing for the same file, which failed when that conversation was"
      + " deleted under it, is computed again for the conversation that asked meanwhile")
  void anotherConversationsFailureIsNotShared() throws Exception {
    // 45 columns of some 20 KB: two scans (40 columns each at most), all within the budget, the file past the size
    // below which a worker fetches it whole, so that the scans fetch their columns from the origin.
    Path file = dir.resolve("many.parquet");
    ParquetFixtures.create(file, "SELECT " + IntStream.range(0, 45)
        .mapToObj(k -> "((i * 7919 + " + k + " * 104729) % 1000003)::INTEGER AS c" + k)
        .collect(Collectors.joining(", ")) + " FROM range(5000) t(i)");
    ParquetServer.Route route = chat.files.route("/many.parquet").file(file);
    String first = conversation;
    String second = chat.conversation();
    String firstDataset = chat.addDataset(first, "/many.parquet").getString("id");
    String secondDataset = chat.addDataset(second, "/many.parquet").getString("id");
    ParquetServer.Held columns = route.holdRangeRequests();
    Future<HttpResponse<Buffer>> firstProfile = chat.client.get(profilePath(first, firstDataset)).send();
    Future<HttpResponse<Buffer>> secondProfile = chat.client.get(profilePath(second, secondDataset)).send();
    try {
      columns.arrived().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + first, null).statusCode()).isEqualTo(204);
    } finally {
      columns.release();
    }
    firstProfile.await();
    HttpResponse<Buffer> answered = secondProfile.await();
    assertThat(answered.statusCode()).as(answered.bodyAsString()).isEqualTo(200);
    assertThat(answered.bodyAsJsonObject().getJsonArray("columns")).hasSize(45)
        .allSatisfy(c -> assertThat(((JsonObject) c).getLong("distinct")).isPositive());
  }

  private static String profilePath(String conversation, String datasetId) {
    return "/api/conversations/" + conversation + "/datasets/" + datasetId + "/profile";
  }

  /** rows = count; per column min, max, distinct = approx_unique, nulls as null_percentage (2 decimals). */
  private static void agreesWithSummarize(JsonObject profile, String source) throws Exception {
    Map<String, JsonObject> expected = summarize(source);
    Map<String, JsonObject> actual = byName(profile);
    assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((name, row) -> {
      JsonObject column = actual.get(name);
      assertThat(profile.getLong("rows")).as("rows").isEqualTo(row.getLong("count"));
      assertThat(column.getString("type")).as(name).isEqualTo(row.getString("column_type"));
      assertThat(column.getString("min")).as(name + " min").isEqualTo(row.getString("min"));
      assertThat(column.getString("max")).as(name + " max").isEqualTo(row.getString("max"));
      assertThat(column.getLong("distinct")).as(name + " distinct").isEqualTo(row.getLong("approx_unique"));
      BigDecimal percentage = BigDecimal.valueOf(column.getLong("nulls") * 100.0 / profile.getLong("rows"))
          .setScale(2, RoundingMode.HALF_UP);
      assertThat(percentage).as(name + " null_percentage").isEqualByComparingTo(row.getString("null_percentage"));
    });
  }

  /** Bare DuckDB's SUMMARIZE, a row per column by name. */
  private static Map<String, JsonObject> summarize(String source) throws Exception {
    Map<String, JsonObject> rows = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SUMMARIZE SELECT * FROM " + source)) {
      while (rs.next()) {
        rows.put(rs.getString("column_name"), new JsonObject().put("column_type", rs.getString("column_type"))
            .put("min", rs.getString("min")).put("max", rs.getString("max"))
            .put("approx_unique", rs.getLong("approx_unique")).put("count", rs.getLong("count"))
            .put("null_percentage", rs.getString("null_percentage")));
      }
    }
    return rows;
  }

  private static Map<String, JsonObject> byName(JsonObject profile) {
    Map<String, JsonObject> columns = new LinkedHashMap<>();
    for (Object each : profile.getJsonArray("columns", new JsonArray())) {
      columns.put(((JsonObject) each).getString("name"), (JsonObject) each);
    }
    return columns;
  }

  private static String literal(Path file) {
    return "'" + file.toString().replace("'", "''") + "'";
  }
}
