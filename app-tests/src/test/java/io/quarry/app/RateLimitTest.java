package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The daily token budget end to end, with usage placed in time rather than waited for. */
class RateLimitTest extends ChatTestBase {

  String userId;

  /**
   * Runs no SQL but where a turn calls execute_sql: elsewhere a node without worker processes (nor their private
   * cluster) starts in a fraction of the time.
   */
  @Override
  Map<String, String> env() {
    boolean sql = test.getTestMethod().map(m -> m.getName().equals("checkedBeforeEachRequest")).orElse(false);
    return sql ? Map.of("QUARRY_TOKEN_LIMIT", "1000") : Map.of("QUARRY_TOKEN_LIMIT", "1000", "QUARRY_LOCAL_WORKERS", "0");
  }

  @BeforeEach
  void prepare() {
    userId = chat.send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
  }

  private void used(long tokens, Duration ago) {
    new StorageClient(chat.node.vertx()).recordUsage(new TokenUsage(userId, null, "gemini-2.5-flash", tokens, 0,
        Timestamps.format(Instant.now().minus(ago)))).await();
  }

  private JsonObject usage() {
    return chat.send(HttpMethod.GET, "/api/usage", null).bodyAsJsonObject();
  }

  @Test
  @DisplayName("GET /api/usage reports tokens used, the limit, what remains, the percentage and no reset while under")
  void usageReport() {
    used(799, Duration.ofHours(3));
    JsonObject usage = usage();
    assertThat(usage.getLong("tokens_used")).isEqualTo(799);
    assertThat(usage.getLong("token_limit")).isEqualTo(1000);
    assertThat(usage.getLong("remaining")).isEqualTo(201);
    assertThat(usage.getDouble("usage_percent")).isEqualTo(79.9);
    assertThat(usage.getLong("resets_in_seconds")).isZero();
  }

  @Test
  @DisplayName("at 80 % a finished turn is followed by rate_limit_warning")
  void warning() throws Exception {
    used(800, Duration.ofHours(3));
    chat.gemini.next().text("Fine.").usage(0, 0);
    chat.asked(conversation, "Hi");
    socket.next("chat_complete");
    JsonObject warning = socket.next("rate_limit_warning");
    assertThat(warning.getDouble("usage_percent")).isEqualTo(80.0);
    assertThat(warning.getLong("remaining_tokens")).isEqualTo(200);
  }

  @Test
  @DisplayName("at 100 % asking is refused with 429, resets_in_seconds, and rate_limit_exceeded on the socket")
  void exceeded() throws Exception {
    used(1000, Duration.ofHours(23));
    HttpResponse<Buffer> refused = chat.ask(conversation, "One more?");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.bodyAsJsonObject().getString("error")).isEqualTo("Daily token limit exceeded");
    long resets = refused.bodyAsJsonObject().getLong("resets_in_seconds");
    assertThat(resets).isBetween(3_500L, 3_600L);
    assertThat(socket.next("rate_limit_exceeded").getLong("resets_in_seconds")).isBetween(3_500L, 3_600L);
    assertThat(chat.gemini.requests()).isEmpty();
  }

  @Test
  @DisplayName("at 99.9 % a turn starts and finishes even as it crosses 100 %; the next one is refused")
  void crossing() throws Exception {
    used(999, Duration.ofHours(1));
    chat.gemini.next().text("This answer costs tokens.").usage(80, 20);
    chat.asked(conversation, "Go");
    assertThat(socket.next("chat_complete").getLong("token_count")).isEqualTo(100);
    socket.next("rate_limit_exceeded");
    assertThat(chat.ask(conversation, "Again").statusCode()).isEqualTo(429);
    assertThat(usage().getLong("tokens_used")).isEqualTo(1099);
  }

  @Test
  @DisplayName("usage older than 24 hours no longer counts: asking works again")
  void windowFrees() throws Exception {
    used(5000, Duration.ofHours(24).plusMinutes(1));
    assertThat(usage().getLong("tokens_used")).isZero();
    chat.gemini.next().answer("Back in budget.");
    chat.asked(conversation, "Hello again");
    socket.next("chat_complete");
  }

  @Test
  @DisplayName("25 turns asked at once at 34 %: the first holds its share, the other 24 are refused, and the day ends under the limit")
  void turnsAskedAtOnce() throws Exception {
    used(340, Duration.ofHours(1));
    chat.gemini.next().text("The first answer.").gate("go").usage(500, 100);
    List<Future<HttpResponse<Buffer>>> asks = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      String id = i == 0 ? conversation : chat.conversation();
      asks.add(chat.client.post("/api/conversations/" + id + "/messages")
          .sendJsonObject(new JsonObject().put("content", "How many rows?")));
    }
    Future.join(asks).await();
    List<Integer> statuses = asks.stream().map(a -> a.result().statusCode()).toList();
    assertThat(statuses).as(asks.stream().map(a -> a.result().bodyAsString()).toList().toString())
        .filteredOn(s -> s == 202).hasSize(1);
    assertThat(statuses).filteredOn(s -> s == 429).hasSize(24);
    assertThat(asks.stream().map(a -> a.result().bodyAsJsonObject().getString("error")).filter(e -> e != null))
        .containsOnly("Your answers being written may use up today's remaining tokens; wait for them to finish");
    chat.gemini.release("go");
    socket.next("chat_complete");
    assertThat(usage().getLong("tokens_used")).isEqualTo(940);
  }

  @Test
  @DisplayName("a turn that crosses the limit between two model requests sends no further request and says why it stops")
  void checkedBeforeEachRequest() throws Exception {
    used(340, Duration.ofHours(1));
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT 1")).usage(600, 100);
    chat.asked(conversation, "Go");
    JsonObject complete = socket.next("chat_complete");
    assertThat(complete.getString("notice")).isEqualTo("The daily token limit was reached, so the answer stops here.");
    assertThat(chat.gemini.requests()).hasSize(1);
    socket.next("rate_limit_exceeded");
    assertThat(usage().getLong("tokens_used")).isEqualTo(1040);
  }
}
