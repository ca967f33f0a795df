package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Export;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code export.maxRows} and {@code export.maxBytes} at their limit and just past it. A one-letter column's CSV is
 * {@code "c\n"} then two bytes a row, so 100 rows are exactly 202 bytes. Each refusal passes one limit only: past both,
 * either message is true, and which one comes depends on whether the worker's watch on the file's size sees it first.
 */
class ExportLimitsTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_EXPORT_MAX_ROWS", "100", "QUARRY_EXPORT_MAX_BYTES", "202");
  }

  private HttpResponse<Buffer> export(String sql) {
    HttpResponse<Buffer> result = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", sql));
    assertThat(result.statusCode()).as(result.bodyAsString()).isEqualTo(200);
    return chat.send(HttpMethod.GET, "/api/results/" + result.bodyAsJsonObject().getString("id")
        + "/export?format=csv", null);
  }

  @Test
  @DisplayName("100 rows in 202 bytes download whole")
  void atTheLimits() {
    chat.addDataset(conversation, "/people.parquet");
    HttpResponse<Buffer> whole = export("SELECT 'x' AS c FROM table1");
    assertThat(whole.statusCode()).as(whole.bodyAsString()).isEqualTo(200);
    assertThat(whole.bodyAsString()).isEqualTo("c\n" + "x\n".repeat(100));
    assertThat(whole.getHeader("x-quarry-rows")).isEqualTo("100");
  }

  @Test
  @DisplayName("101 rows in 103 bytes are refused with 413 and the rows limit")
  void oneRowTooMany() {
    chat.addDataset(conversation, "/people.parquet");
    // A NULL is an empty line in CSV, so 101 of them are 103 bytes: within the bytes limit.
    assertThat(export("SELECT NULL::VARCHAR AS c FROM table1").bodyAsString()).isEqualTo("c\n" + "\n".repeat(100));
    HttpResponse<Buffer> refused = export("SELECT NULL::VARCHAR AS c FROM table1 UNION ALL SELECT NULL");
    assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(413);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(Export.tooManyRows(100));
    assertThat(Export.tooManyRows(100)).isEqualTo("The export would have more than 100 rows (export.maxRows):"
        + " narrow the query, or ask your operator for a higher limit");
  }

  @Test
  @DisplayName("100 rows in 203 bytes are refused with 413 and the size limit")
  void oneByteTooMany() {
    chat.addDataset(conversation, "/people.parquet");
    HttpResponse<Buffer> refused = export("SELECT CASE WHEN id = 1 THEN 'xy' ELSE 'x' END AS c FROM table1");
    assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(413);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo(Export.tooManyBytes(202));
  }
}
