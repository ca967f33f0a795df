package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.Keys;
import io.quarry.bus.TurnClaim;
import io.quarry.testing.EventLog;
import io.quarry.testing.Failures;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.junit5.VertxExtension;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two llm verticles of two nodes on one bus, requests spread between them as a cluster's bus spreads them: one
 * running turn per conversation whichever gets a question, stop wherever it lands, and the turns of a node that
 * leaves the cluster ended for the browser.
 */
@ExtendWith(VertxExtension.class)
class SeveralLlmNodesTest {

  Vertx vertx;
  TurnHarness turn;
  AsyncMap<String, String> turns;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    turn = new TurnHarness(vertx, new JsonObject(), ModelSettings.GEMINI, "node-a", "node-b");
    turns = vertx.sharedData().<String, String>getAsyncMap(Addresses.TURNS_MAP).await();
  }

  @AfterEach
  void stop() {
    turn.close();
  }

  @Test
  @DisplayName("while a turn runs, a second question is refused with 409 by every llm node it reaches")
  void oneTurnAcrossNodes() throws Exception {
    turn.model.next().text("Thinking").stall();
    turn.asked("First");
    turn.events.next("chat_token");
    for (int i = 0; i < 4; i++) {
      Throwable refused = Failures.failure(turn.llm.start(TurnHarness.USER, turn.conversation, "Again " + i));
      assertThat(Failure.classify(refused)).isEqualTo(Failure.CONFLICT);
      assertThat(Failure.messageOf(refused)).isEqualTo(Turns.IN_PROGRESS);
    }
    assertThat(turn.model.requests()).hasSize(1);
  }

  @Test
  @DisplayName("stop reaches the node running the turn, whichever node takes it; another user's stop is 404")
  void stopRouted() throws Exception {
    String second = turn.storage.seedConversation(TurnHarness.USER, "Second").await().id();
    turn.model.next().text("One").stall();
    turn.model.next().text("Two").stall();
    String first = turn.asked("First");
    String other = turn.llm.start(TurnHarness.USER, second, "Second").await().messageId();
    // Both answers stream (which gets "One" depends on which reaches Gemini first).
    Set<String> streaming = new HashSet<>(Set.of(first, other));
    while (!streaming.isEmpty()) {
      streaming.remove(turn.events.next(e -> streaming.contains(e.getString("message_id"))).getString("message_id"));
    }
    assertThat(TurnClaim.decode(turns.get(turn.conversation).await()).nodeId())
        .isNotEqualTo(TurnClaim.decode(turns.get(second).await()).nodeId());

    Throwable stranger = Failures.failure(turn.llm.stop("someone-else", turn.conversation));
    assertThat(Failure.classify(stranger)).isEqualTo(Failure.NOT_FOUND);
    // Stops alternate between the two nodes: with one stop between them, one of the two lands on the node that
    // does not run its turn.
    assertThat(turn.llm.stop(TurnHarness.USER, turn.conversation).await().stopped()).isTrue();
    String idle = turn.storage.seedConversation(TurnHarness.USER, "Idle").await().id();
    assertThat(turn.llm.stop(TurnHarness.USER, idle).await().stopped()).isFalse();
    assertThat(turn.llm.stop(TurnHarness.USER, second).await().stopped()).isTrue();

    assertThat(turn.storage.messages(turn.conversation).await().get(1).status()).isEqualTo(ChatMessage.CANCELLED);
    assertThat(turn.storage.messages(second).await().get(1).status()).isEqualTo(ChatMessage.CANCELLED);
    assertThat(turns.size().await()).isZero();
    turn.model.next().answer("Free again.");
    turn.asked("Next");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Free again.");
  }

  @Test
  @DisplayName("when the node running a turn leaves, the browser gets a chat_error, the answer so far is kept as"
      + " interrupted, and the conversation takes the next question")
  void nodeLeaves() throws Exception {
    turn.model.next().stall();
    String elsewhere = turn.storage.seedConversation(TurnHarness.USER, "Elsewhere").await().id();
    String stillRunning = new TurnClaim(elsewhere, TurnHarness.USER, UUID.randomUUID().toString(), "owner-c",
        "node-c").encode();
    turns.put(elsewhere, stillRunning).await();
    String messageId = turn.asked("Tell me");
    turn.model.awaitRequest();
    // What the node had saved before it died: its last checkpoint.
    turn.storage.seedMessages(new ChatMessage(messageId, turn.conversation, ChatMessage.ASSISTANT, "Half an answ",
        null, null, null, null, 0, 0, ChatMessage.STREAMING, null, null)).await();
    String node = TurnClaim.decode(turns.get(turn.conversation).await()).nodeId();

    memberLeft(node);

    JsonObject error = turn.events.next("chat_error");
    assertThat(error.getString("message_id")).isEqualTo(messageId);
    assertThat(error.getString("error")).isEqualTo(Orphans.ERROR);
    ChatMessage kept = turn.answer();
    assertThat(kept.content()).isEqualTo("Half an answ");
    assertThat(kept.status()).isEqualTo(ChatMessage.INTERRUPTED);
    assertThat(kept.notice()).isEqualTo(Orphans.NOTICE);
    assertThat(turns.get(turn.conversation).await()).isNull();
    assertThat(turns.get(elsewhere).await()).as("the turn of a node still there").isEqualTo(stillRunning);
    assertThat(turn.events.seen()).filteredOn(e -> "chat_error".equals(e.getString("type"))).hasSize(1);
    turn.model.next().answer("Back.");
    turn.asked("Again");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Back.");
  }

  @Test
  @DisplayName("a node that left while no llm node was up to hear it: its turns are ended when an llm node starts")
  void settledAtStart() throws Exception {
    String messageId = UUID.randomUUID().toString();
    turns.put(turn.conversation, new TurnClaim(turn.conversation, TurnHarness.USER, messageId, "gone-owner",
        "node-gone").encode()).await();

    turn.deploy(vertx, "node-c");

    assertThat(turn.events.next("chat_error").getString("message_id")).isEqualTo(messageId);
    assertThat(turn.answer().status()).isEqualTo(ChatMessage.INTERRUPTED);
    assertThat(turn.answer().content()).isEmpty();
    assertThat(turns.get(turn.conversation).await()).isNull();
  }

  @Test
  @DisplayName("a claim whose turn is over (its node left unheard, or its release was lost) gives way to the next"
      + " question, the old answer settled; a claim its owner still holds refuses")
  void staleClaimsGiveWay() throws Exception {
    String unheard = UUID.randomUUID().toString();
    turns.put(turn.conversation, new TurnClaim(turn.conversation, TurnHarness.USER, unheard, "gone-owner",
        "node-gone").encode()).await();
    turn.model.next().text("One.").gate("one").usage(100, 2);
    String first = turn.asked("After a node nobody heard leave");
    assertThat(turn.events.next("chat_error").getString("message_id")).isEqualTo(unheard);
    String running = turns.get(turn.conversation).await();
    assertThat(TurnClaim.decode(running).messageId()).isEqualTo(first);
    for (int i = 0; i < 2; i++) {
      Throwable refused = Failures.failure(turn.llm.start(TurnHarness.USER, turn.conversation, "While it runs"));
      assertThat(Failure.messageOf(refused)).as("a claim still held, asked on either node").isEqualTo(Turns.IN_PROGRESS);
    }
    turn.model.release("one");
    assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("One.");

    for (int i = 0; i < 2; i++) {
      // Its release lost: the claim is back, its owner no longer holds it (asked here, or over the bus).
      turns.put(turn.conversation, running).await();
      turn.model.next().answer("Free " + i + ".");
      turn.asked("Next " + i);
      assertThat(turn.events.next("chat_complete").getString("message_id")).as("the settled answer, complete")
          .isEqualTo(first);
      assertThat(EventLog.tokens(turn.events.untilTurnEnds())).isEqualTo("Free " + i + ".");
    }
    assertThat(turns.get(turn.conversation).await()).isNull();
  }

  private void memberLeft(String node) {
    vertx.eventBus().publish(Addresses.CLUSTER_MEMBER_LEFT, new JsonObject().put(Keys.NODE_ID, node),
        new DeliveryOptions().setLocalOnly(true));
  }
}
