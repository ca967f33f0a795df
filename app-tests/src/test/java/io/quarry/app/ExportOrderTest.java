package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A download follows the table's sort (issue 36, part 5): GET /api/results/:rid/export?format=csv&sort=&dir=. */
class ExportOrderTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** No ORDER BY: the order of its rows is DuckDB's to choose. */
  static final String PEOPLE = "SELECT id, name, score FROM table1";

  private String resultOf(String sql) {
    HttpResponse<Buffer> response = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", sql));
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(200);
    return response.bodyAsJsonObject().getString("id");
  }

  private HttpResponse<Buffer> export(String resultId, String query) {
    return chat.send(HttpMethod.GET, "/api/results/" + resultId + "/export?format=csv" + query, null);
  }

  /** What DuckDB itself writes as CSV for {@code sql} over the people file (as table1). */
  private String duckdbCsv(String sql) throws Exception {
    Path to = dir.resolve("expected.csv");
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement()) {
      s.execute("CREATE VIEW table1 AS SELECT * FROM read_parquet('" + chat.dir.resolve("people.parquet") + "')");
      s.execute("COPY (" + sql + ") TO '" + to + "' (FORMAT CSV, HEADER true)");
    }
    return Files.readString(to);
  }

  @Test
  @DisplayName("sort=id&dir=desc downloads the result's rows in DuckDB's order for ORDER BY id DESC; sort=name with no"
      + " dir is ascending")
  void followsTheSort() throws Exception {
    chat.addDataset(conversation, "/people.parquet");
    String resultId = resultOf(PEOPLE);

    HttpResponse<Buffer> descending = export(resultId, "&sort=id&dir=desc");
    assertThat(descending.statusCode()).as(descending.bodyAsString()).isEqualTo(200);
    assertThat(descending.bodyAsString()).isEqualTo(duckdbCsv(PEOPLE + " ORDER BY id DESC NULLS LAST"));

    HttpResponse<Buffer> byName = export(resultId, "&sort=name");
    assertThat(byName.statusCode()).isEqualTo(200);
    String body = byName.bodyAsString();
    assertThat(body.lines().skip(1).map(line -> line.split(",")[1]).toList())
        .isEqualTo(duckdbCsv(PEOPLE + " ORDER BY name ASC NULLS LAST").lines().skip(1)
            .map(line -> line.split(",")[1]).toList());
  }

  @Test
  @DisplayName("a sort that is not a column of the result, or a dir other than asc or desc, is refused with 400 naming"
      + " the parameter")
  void unknownSortRefused() {
    chat.addDataset(conversation, "/people.parquet");
    String resultId = resultOf(PEOPLE);
    for (String column : new String[] {"age", "ID", "id\" DESC; SELECT 1 --", "1"}) {
      HttpResponse<Buffer> refused = export(resultId, "&sort=" + URLEncoder.encode(column, StandardCharsets.UTF_8));
      assertThat(refused.statusCode()).as(column).isEqualTo(400);
      assertThat(refused.bodyAsJsonObject().getString("error"))
          .isEqualTo("Query parameter 'sort' must name a column of the result");
    }
    HttpResponse<Buffer> sideways = export(resultId, "&sort=id&dir=sideways");
    assertThat(sideways.statusCode()).isEqualTo(400);
    assertThat(sideways.bodyAsJsonObject().getString("error")).isEqualTo("Query parameter 'dir' must be asc or desc");
  }
}
