package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RowsJsonTest {

  private static final JsonArray VALUES = new JsonArray()
      .add(new JsonArray().add(1).add("a \"quoted\"\nline, é, 日本, \uD83D\uDE00").addNull().add(true))
      .add(new JsonArray().add(9007199254740991L).add("9007199254740993").add(0.1).add(-1.5e300))
      .add(new JsonArray().add(new JsonArray().add(1).add(2)).add(new JsonObject().put("x", new JsonArray().add("y")))
          .add("NaN").add(Double.MIN_VALUE));

  @Test
  @DisplayName("rows written one at a time are the text Vert.x encodes for the same values, and parse back to them")
  void writer() {
    RowsJson.Writer writer = RowsJson.writer();
    for (Object row : VALUES) {
      writer.add(((JsonArray) row).getList());
    }
    RowsJson rows = writer.done();
    assertThat(rows.text()).isEqualTo(VALUES.encode());
    assertThat(rows.toJsonArray()).isEqualTo(VALUES);
    assertThat(rows.size()).isEqualTo(3);
    assertThat(RowsJson.writer().done().text()).isEqualTo("[]");
  }

  @Test
  @DisplayName("in a JSON object the rows are shared by a local copy and written as a JSON array by its encoding")
  void inJsonObject() {
    RowsJson rows = RowsJson.of(VALUES);
    JsonObject message = new JsonObject().put("id", "r1").put("rows", rows);
    assertThat(message.copy().getValue("rows")).isSameAs(rows);
    assertThat(new JsonObject(message.encode()).getJsonArray("rows")).isEqualTo(VALUES);
    assertThat(new JsonObject(message.toBuffer()).getJsonArray("rows")).isEqualTo(VALUES);
    assertThat(new JsonObject(message.encodePrettily()).getJsonArray("rows")).isEqualTo(VALUES);
  }

  @Test
  @DisplayName("a result reads its rows as text (local delivery) or as an array (from elsewhere), and refuses anything else")
  void fromJson() {
    QueryResult local = QueryResult.fromJson(new JsonObject().put("rows", RowsJson.of(VALUES)));
    QueryResult remote = QueryResult.fromJson(new JsonObject().put("rows", VALUES.copy()));
    assertThat(local.rowValues()).isEqualTo(VALUES);
    assertThat(remote.rowValues()).isEqualTo(VALUES);
    assertThat(QueryResult.fromJson(new JsonObject()).rows().size()).isZero();
    assertThatThrownBy(() -> QueryResult.fromJson(new JsonObject().put("rows", "[[1]]")))
        .isInstanceOf(QuarryException.class).hasMessage("Field 'rows' must be an array of rows");
  }

  @Test
  @DisplayName("capping keeps 1,000 rows of 1,001 and marks the result truncated; 1,000 are kept as they are")
  void capped() {
    QueryResult atLimit = result(1000, -1);
    assertThat(atLimit.capped()).isSameAs(atLimit);
    QueryResult over = result(1001, 1001).capped();
    assertThat(over.rows().size()).isEqualTo(1000);
    assertThat(over.rowValues().getJsonArray(999).getInteger(0)).isEqualTo(999);
    assertThat(over.truncated()).isTrue();
    assertThat(over.totalRows()).isEqualTo(1001);
    // Text read back from storage is counted when asked.
    QueryResult stored = result(1001, -1);
    assertThat(stored.rows().size()).isEqualTo(1001);
    assertThat(stored.capped().rows().size()).isEqualTo(1000);
  }

  @Test
  @DisplayName("a worker's reply carries the header and the rows as text, newlines and all, and names who served it")
  void workerReply() {
    JsonArray columns = new JsonArray().add(new JsonObject().put("name", "a\nb").put("type", "VARCHAR"));
    QueryResult result = new QueryResult(null, null, "SELECT 'x\ny' AS \"a\nb\" -- é", columns, RowsJson.of(VALUES),
        3, false, 7, null, null);
    Buffer reply = WorkerReply.encode(result, "node-1/worker-2");
    QueryResult back = WorkerReply.decode(reply);
    assertThat(back).isEqualTo(result);
    assertThat(back.rows().size()).isEqualTo(3);
    assertThat(WorkerReply.header(reply).getString("served_by")).isEqualTo("node-1/worker-2");
    assertThat(WorkerReply.header(reply).containsKey("rows")).isFalse();

    QueryResult noted = WorkerReply.decode(WorkerReply.noted(reply, "From the cached copy"));
    assertThat(noted.note()).isEqualTo("From the cached copy");
    assertThat(noted.rowValues()).isEqualTo(result.rowValues());
    assertThat(noted.sql()).isEqualTo(result.sql());
  }

  private static QueryResult result(int count, int known) {
    JsonArray rows = new JsonArray();
    for (int i = 0; i < count; i++) {
      rows.add(new JsonArray(Arrays.asList(i, "row " + i)));
    }
    RowsJson text = known >= 0 ? RowsJson.of(rows) : RowsJson.text(rows.encode());
    return new QueryResult("r", "c", "SELECT", new JsonArray(List.of()), text, count, false, 1, "now", null);
  }
}
