package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /api/conversations/:id/messages/:mid/continue} on a whole node: 202 with the answer's own id, the rest
 * streams under it over the WebSocket and is stored with it; 409 while a turn runs or for an answer not cut off; 404
 * for a conversation or message that is not the user's. What the model is sent is tested in llm-verticle.
 */
class ContinueAnswerTest extends ChatTestBase {

  static final String CUT_OFF = "The answer was cut off at the model's output limit.";

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  private HttpResponse<Buffer> continueAnswer(String conversationId, String messageId) {
    return chat.send(HttpMethod.POST, "/api/conversations/" + conversationId + "/messages/" + messageId + "/continue",
        null);
  }

  private String cutOffAnswer() throws Exception {
    chat.model().next().text("The first of many ").text("points is").cutOff(30, 8192);
    String id = chat.asked(conversation, "Write a lot");
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(events.get(events.size() - 1).getString("notice")).isEqualTo(CUT_OFF);
    return id;
  }

  @Test
  @DisplayName("202 with the same message id; the rest streams under it and the stored answer is the whole text")
  void continues() throws Exception {
    String id = cutOffAnswer();
    chat.model().next().answer(" that the rest", " follows.");
    HttpResponse<Buffer> response = continueAnswer(conversation, id);
    assertThat(response.statusCode()).as(response.bodyAsString()).isEqualTo(202);
    assertThat(response.bodyAsJsonObject().getString("message_id")).isEqualTo(id);
    List<JsonObject> events = socket.untilTurnEnds();
    assertThat(ChatHarness.Socket.tokens(events)).isEqualTo(" that the rest follows.");
    assertThat(events.stream().filter(e -> "chat_token".equals(e.getString("type"))))
        .allSatisfy(e -> assertThat(e.getString("message_id")).isEqualTo(id));
    JsonObject stored = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1);
    assertThat(stored.getString("id")).isEqualTo(id);
    assertThat(stored.getString("content")).isEqualTo("The first of many points is that the rest follows.");
    assertThat(stored.getString("notice")).isNull();

    HttpResponse<Buffer> again = continueAnswer(conversation, id);
    assertThat(again.statusCode()).as("a whole answer is not continued").isEqualTo(409);
  }

  @Test
  @DisplayName("409 while the continuation runs; 404 for an unknown conversation or message")
  void refused() throws Exception {
    String id = cutOffAnswer();
    chat.model().next().text(" on").gate("held").usage(40, 2);
    assertThat(continueAnswer(conversation, id).statusCode()).isEqualTo(202);
    socket.next("chat_token");
    HttpResponse<Buffer> busy = continueAnswer(conversation, id);
    assertThat(busy.statusCode()).isEqualTo(409);
    assertThat(busy.bodyAsJsonObject().getString("error")).isEqualTo("Generation already in progress for this conversation");
    chat.model().release("held");
    socket.untilTurnEnds();

    assertThat(continueAnswer("00000000-0000-0000-0000-000000000000", id).statusCode()).isEqualTo(404);
    assertThat(continueAnswer(conversation, "00000000-0000-0000-0000-000000000000").statusCode()).isEqualTo(404);
  }
}
