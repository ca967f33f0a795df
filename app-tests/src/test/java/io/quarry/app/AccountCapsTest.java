package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Sizes;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What one account can pile up, at each cap and one past it, and how fast it may change things. */
class AccountCapsTest {

  static final String NOTHING_EXPENSIVE = "SELECT repeat('x', 1000) AS s";

  @TempDir
  Path dir;

  ChatHarness chat;

  @AfterEach
  void stop() {
    if (chat != null) {
      chat.close();
    }
  }

  private void start(Map<String, String> env) {
    Map<String, String> all = new java.util.HashMap<>(env);
    // One worker process runs these tests' few queries: a node with one starts in about half the time of the default two.
    all.putIfAbsent("QUARRY_LOCAL_WORKERS", "1");
    chat = new ChatHarness(dir, all);
  }

  private HttpResponse<Buffer> query(String conversation, String sql) {
    return chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query", new JsonObject().put("sql", sql));
  }

  @Test
  @DisplayName("conversations: the cap is reached, one more is refused with a clear 409, deleting one makes room")
  void conversations() {
    // No query here: a node without worker processes (and so without a cluster) starts in a fraction of the time.
    start(Map.of("QUARRY_STORAGE_MAX_CONVERSATIONS_PER_USER", "3", "QUARRY_LOCAL_WORKERS", "0"));
    String first = chat.conversation();
    chat.conversation();
    chat.conversation();
    HttpResponse<Buffer> fourth = chat.send(HttpMethod.POST, "/api/conversations", new JsonObject());
    assertError(fourth, 409, "You have reached the limit of 3 conversations; delete some to start new ones");
    assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + first, null).statusCode()).isEqualTo(204);
    assertThat(chat.send(HttpMethod.POST, "/api/conversations", new JsonObject()).statusCode()).isEqualTo(201);
  }

  @Test
  @DisplayName("messages: a conversation at its cap refuses a new question with a clear 409, and Gemini is not asked")
  void messages() throws Exception {
    start(Map.of("QUARRY_STORAGE_MAX_MESSAGES_PER_CONVERSATION", "4", "QUARRY_LOCAL_WORKERS", "0"));
    String conversation = chat.conversation();
    try (ChatHarness.Socket socket = chat.socket()) {
      for (int i = 0; i < 2; i++) {
        chat.gemini.next().answer("Answer " + i);
        chat.asked(conversation, "Question " + i);
        socket.next("chat_complete");
      }
    }
    assertThat(chat.conversationJson(conversation).getJsonArray("messages")).hasSize(4);
    assertError(chat.ask(conversation, "One too many"), 409,
        "This conversation has reached the limit of 4 messages; start a new conversation to go on");
    assertThat(chat.gemini.requests()).hasSize(2);
    assertThat(chat.conversationJson(conversation).getJsonArray("messages")).hasSize(4);
  }

  @Test
  @DisplayName("stored result bytes: a result that fits is kept, the next one past the cap is not and says why, and later queries are refused until something is deleted")
  void resultBytes() throws Exception {
    start(Map.of());
    String probe = chat.conversation();
    HttpResponse<Buffer> probeRun = query(probe, NOTHING_EXPENSIVE);
    assertThat(probeRun.statusCode()).as("the probe query: %s", probeRun.bodyAsString()).isEqualTo(200);
    String probed = probeRun.bodyAsJsonObject().getString("id");
    assertThat(chat.send(HttpMethod.GET, "/api/results/" + probed, null).statusCode()).as("read once saved").isEqualTo(200);
    long one = chat.sqlite("SELECT LENGTH(rows_json) + LENGTH(columns_json) + LENGTH(sql) FROM query_results");
    chat.close();

    start(Map.of("QUARRY_STORAGE_MAX_RESULT_BYTES_PER_USER", String.valueOf(3 * one)));
    String conversation = chat.conversation();
    HttpResponse<Buffer> atTheCap = query(conversation, NOTHING_EXPENSIVE);
    assertThat(atTheCap.statusCode()).isEqualTo(200);
    String kept = atTheCap.bodyAsJsonObject().getString("id");
    assertThat(chat.send(HttpMethod.GET, "/api/results/" + kept, null).statusCode()).as("the probe's and this one: 2 of 3")
        .isEqualTo(200);
    HttpResponse<Buffer> last = query(conversation, NOTHING_EXPENSIVE);
    assertThat(last.statusCode()).as("one below the cap, so it runs: 3 of 3").isEqualTo(200);
    assertThat(chat.send(HttpMethod.GET, "/api/results/" + last.bodyAsJsonObject().getString("id"), null).statusCode())
        .isEqualTo(200);
    String message = "Your stored query results have reached the limit of " + Sizes.human(3 * one)
        + "; delete old conversations to run more queries";
    assertError(query(conversation, NOTHING_EXPENSIVE), 409, message);
    assertThat(chat.sqlite("SELECT COUNT(*) FROM query_results")).isEqualTo(3);

    assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + probe, null).statusCode()).isEqualTo(204);
    HttpResponse<Buffer> again = query(conversation, NOTHING_EXPENSIVE);
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(chat.send(HttpMethod.GET, "/api/results/" + again.bodyAsJsonObject().getString("id"), null).statusCode())
        .isEqualTo(200);
  }

  @Test
  @DisplayName("writes: the burst passes, the next change gets 429 with Retry-After; SQL runs are not counted")
  void writeRate() {
    start(Map.of("QUARRY_CHAT_WRITE_BURST", "5", "QUARRY_CHAT_WRITES_PER_MINUTE", "6"));
    String conversation = chat.conversation();
    for (int i = 0; i < 4; i++) {
      assertThat(chat.send(HttpMethod.PATCH, "/api/conversations/" + conversation, new JsonObject().put("title", "T" + i))
          .statusCode()).isEqualTo(200);
    }
    HttpResponse<Buffer> refused = chat.send(HttpMethod.PATCH, "/api/conversations/" + conversation,
        new JsonObject().put("title", "one too many"));
    long seconds = Long.parseLong(refused.getHeader("Retry-After"));
    assertThat(seconds).isBetween(9L, 10L);
    assertError(refused, 429, "Too many changes in a short time; try again in " + seconds + " seconds");
    for (int i = 0; i < 8; i++) {
      assertThat(query(conversation, "SELECT " + i).statusCode()).isEqualTo(200);
    }
    assertThat(chat.conversationJson(conversation).getJsonObject("conversation").getString("title")).isEqualTo("T3");
  }
}
