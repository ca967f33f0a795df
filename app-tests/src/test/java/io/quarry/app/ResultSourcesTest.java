package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Results that know their data's version (issue 20, part 3): their sources, and the dataset that learns a new one. */
class ResultSourcesTest extends ChatTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Test
  @DisplayName("a result records the version of the file it read; when the file changes, the next result reads the"
      + " new one, the dataset takes it (and its browsers hear so), and the first result still names the old one")
  void versions() throws Exception {
    JsonObject dataset = chat.addDataset(conversation, "/people.parquet");
    JsonObject first = query("SELECT count(*) AS n FROM table1");
    JsonObject read = first.getJsonArray("sources").getJsonObject(0);
    assertThat(read.getString("table")).isEqualTo("table1");
    assertThat(read.getString("url")).isEqualTo(dataset.getString("url"));
    assertThat(read.getString("etag")).isEqualTo(dataset.getString("etag"));
    assertThat(read.getLong("size")).isEqualTo(dataset.getLong("file_size"));

    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("more.parquet"),
        "SELECT 'person ' || i AS name, i AS age, i % 2 = 0 AS active FROM range(150) t(i)"));
    JsonObject second = query("SELECT count(*) AS n FROM table1");
    assertThat(second.getJsonArray("rows").getJsonArray(0).getLong(0)).isEqualTo(150);
    String newEtag = second.getJsonArray("sources").getJsonObject(0).getString("etag");
    assertThat(newEtag).isNotEqualTo(read.getString("etag"));

    JsonObject heard = socket.next(e -> ChatEvents.DATASET_LOADED.equals(e.getString("type"))
        && newEtag.equals(e.getJsonObject("dataset").getString("etag")));
    assertThat(heard.getJsonObject("dataset").getLong("file_size")).isEqualTo(second.getJsonArray("sources")
        .getJsonObject(0).getLong("size"));
    JsonObject now = chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0);
    assertThat(now.getString("etag")).isEqualTo(newEtag);
    JsonObject stored = chat.send(HttpMethod.GET, "/api/results/" + first.getString("id"), null).bodyAsJsonObject();
    assertThat(stored.getJsonArray("sources").getJsonObject(0).getString("etag")).isEqualTo(read.getString("etag"));
  }
}
