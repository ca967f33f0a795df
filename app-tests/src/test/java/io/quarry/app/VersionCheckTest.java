package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.QueryTimeouts;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Opening a conversation asks its files' servers whether they changed (issue 20, part 3: results say so as soon as the
 * conversation is opened), at most once a dataset per {@code dataset.versionCheckIntervalMs} (60 s).
 */
class VersionCheckTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  private DatasetClient datasets() {
    return new DatasetClient(chat.node.vertx(), new QueryTimeouts(60_000));
  }

  private String userId() {
    return chat.send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
  }

  private void fileChanges() {
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT 'person ' || i AS name, i AS age FROM range(150) t(i)"));
  }

  @Test
  @DisplayName("POST /api/conversations/:id/datasets/versions, which the page sends when it opens a conversation, records"
      + " a changed file's new version, answers it and tells the browsers, with no query run")
  void openingSeesNewVersion() throws Exception {
    JsonObject added = chat.addDataset(conversation, "/people.parquet");
    fileChanges();
    JsonObject checked = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets/versions",
        new JsonObject()).bodyAsJsonObject();
    assertThat(checked.getInteger("checked")).isEqualTo(1);
    assertThat(checked.getInteger("changed")).isEqualTo(1);
    JsonObject answered = checked.getJsonArray("datasets").getJsonObject(0);
    assertThat(answered.getString("etag")).isNotEqualTo(added.getString("etag"));

    JsonObject heard = socket.next(e -> ChatEvents.DATASET_LOADED.equals(e.getString("type"))
        && !added.getString("etag").equals(e.getJsonObject("dataset").getString("etag")));
    assertThat(heard.getJsonObject("dataset").getLong("file_size")).isNotEqualTo(added.getLong("file_size"));
    JsonObject now = chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0);
    assertThat(now.getString("etag")).isEqualTo(heard.getJsonObject("dataset").getString("etag"));
    assertThat(now.getString("status")).isEqualTo("ready");
    assertThat(now.getString("etag")).isEqualTo(answered.getString("etag"));
  }

  @Test
  @DisplayName("a new version learnt by opening the conversation or by a query is read again: its row count, columns"
      + " and size are recorded and heard, not the first version's (issue 3: the card follows the data)")
  void newVersionIsReadAgain() throws Exception {
    JsonObject added = chat.addDataset(conversation, "/people.parquet");
    assertThat(added.getLong("row_count")).isEqualTo(100);
    byte[] more = ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT 'person ' || i AS name, i AS age FROM range(150) t(i)");
    chat.files.route("/people.parquet").content(more);
    JsonObject checked = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/datasets/versions",
        new JsonObject()).bodyAsJsonObject();
    assertNewVersion(checked.getJsonArray("datasets").getJsonObject(0), 150, more.length);
    assertNewVersion(chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0), 150, more.length);

    byte[] fewer = ParquetFixtures.write(dir.resolve("fewer.parquet"),
        "SELECT 'person ' || i AS name, i AS age FROM range(20) t(i)");
    chat.files.route("/people.parquet").content(fewer);
    JsonObject ran = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", "SELECT count(*) AS n FROM table1")).bodyAsJsonObject();
    assertThat(ran.getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(20);
    JsonObject heard = socket.next(e -> ChatEvents.DATASET_LOADED.equals(e.getString("type"))
        && e.getJsonObject("dataset").getLong("row_count") == 20);
    assertNewVersion(heard.getJsonObject("dataset"), 20, fewer.length);
    assertNewVersion(chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0), 20, fewer.length);
  }

  private static void assertNewVersion(JsonObject dataset, long rows, long size) {
    assertThat(dataset.getLong("row_count")).isEqualTo(rows);
    assertThat(dataset.getInteger("column_count")).isEqualTo(2);
    assertThat(dataset.getJsonArray("schema").stream().map(c -> ((JsonObject) c).getString("name")))
        .containsExactly("name", "age");
    assertThat(dataset.getLong("file_size")).isEqualTo(size);
    assertThat(dataset.getString("status")).isEqualTo("ready");
  }

  @Test
  @DisplayName("another's or an unknown conversation's versions are a 404")
  void unknownConversation() {
    assertThat(chat.send(HttpMethod.POST, "/api/conversations/00000000-0000-0000-0000-000000000000/datasets/versions",
        new JsonObject()).statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("a thousand checks of one conversation ask its file's server once; an unchanged file changes nothing")
  void askedOncePerInterval() {
    JsonObject added = chat.addDataset(conversation, "/people.parquet");
    String user = userId();
    DatasetClient datasets = datasets();
    long before = chat.files.route("/people.parquet").requests();

    JsonObject first = datasets.checkVersions(user, conversation).await().toJson();
    assertThat(first.getInteger("checked")).isEqualTo(1);
    assertThat(first.getLong("changed")).isZero();
    for (int i = 0; i < 999; i++) {
      assertThat(datasets.checkVersions(user, conversation).await().toJson().getInteger("checked")).as("check %d", i)
          .isZero();
    }
    assertThat(chat.files.route("/people.parquet").requests() - before).isEqualTo(1);
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0).getString("etag"))
        .isEqualTo(added.getString("etag"));
  }

  @Test
  @DisplayName("a server that refuses HEAD says nothing of the file: the dataset stays as it was")
  void refusedHeadChangesNothing() {
    JsonObject added = chat.addDataset(conversation, "/people.parquet");
    chat.files.route("/people.parquet").refuseHead();
    fileChanges();

    JsonObject checked = datasets().checkVersions(userId(), conversation).await().toJson();
    assertThat(checked.getInteger("checked")).isEqualTo(1);
    assertThat(checked.getLong("changed")).isZero();
    assertThat(chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0).getString("etag"))
        .isEqualTo(added.getString("etag"));
  }
}
