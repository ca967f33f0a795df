package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.Sha256;
import io.quarry.bus.Shares;
import io.quarry.bus.Shares.NewShare;
import io.quarry.bus.Shares.Opened;
import io.quarry.bus.Shares.Share;
import io.quarry.bus.Timestamps;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Share links (issue 52, item 1): hash-only storage, the owner's own, revoked and expired open nothing, a cap. */
class ShareStoreTest extends StorageTestBase {

  static final int MAX = 3;

  @Override
  JsonObject config() {
    return super.config().put("maxSharesPerUser", MAX);
  }

  private NewShare share(String userId, String conversationId, String token, String expiresAt) {
    return new NewShare(UUID.randomUUID().toString(), userId, Shares.CONVERSATION, conversationId, null, null,
        Shares.ANYONE, "Ada", expiresAt, Sha256.hex(token));
  }

  @Test
  @DisplayName("a share is opened by its token's hash, with its owner; the table holds the hash and never the token")
  void openedByHash() throws Exception {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    Share made = storage.createShare(share(alice.id(), c.id(), "qs_secret-token", null)).await();

    Opened opened = storage.openShare(Sha256.hex("qs_secret-token")).await();
    assertThat(opened.userId()).isEqualTo(alice.id());
    assertThat(opened.share().id()).isEqualTo(made.id());
    assertThat(opened.share().title()).isEqualTo("Fuel");
    assertThat(opened.share().until()).isEqualTo(made.createdAt());
    assertThat(rows("SELECT * FROM shares").toString()).doesNotContain("qs_secret-token")
        .contains(Sha256.hex("qs_secret-token"));
    assertFails(storage.openShare(Sha256.hex("qs_other")), Failure.NOT_FOUND, Shares.NOT_FOUND);
  }

  @Test
  @DisplayName("a second delivery of a creation answers the share made, and makes no second one")
  void secondDelivery() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    NewShare request = share(alice.id(), c.id(), "qs_a", null);
    Share first = storage.createShare(request).await();
    Share again = storage.createShare(request).await();
    assertThat(again).isEqualTo(first);
    assertThat(storage.shares(alice.id()).await()).hasSize(1);
  }

  @Test
  @DisplayName("a revoked link and an expired one open nothing, with the same NOT_FOUND as an unknown one")
  void revokedAndExpired() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    Share revoked = storage.createShare(share(alice.id(), c.id(), "qs_revoked", null)).await();
    storage.createShare(share(alice.id(), c.id(), "qs_expired",
        Timestamps.format(Instant.now().minusSeconds(1)))).await();

    Share after = storage.revokeShare(alice.id(), revoked.id()).await();
    assertThat(after.revokedAt()).isNotNull();
    assertThat(after.status(Timestamps.now())).isEqualTo("revoked");
    assertThat(storage.revokeShare(alice.id(), revoked.id()).await().revokedAt()).as("again: unchanged")
        .isEqualTo(after.revokedAt());
    assertFails(storage.openShare(Sha256.hex("qs_revoked")), Failure.NOT_FOUND, Shares.NOT_FOUND);
    assertFails(storage.openShare(Sha256.hex("qs_expired")), Failure.NOT_FOUND, Shares.NOT_FOUND);
    assertThat(storage.shares(alice.id()).await()).extracting(s -> s.status(Timestamps.now()))
        .containsExactlyInAnyOrder("revoked", "expired");
  }

  @Test
  @DisplayName("another user's conversation, answer or share: NOT_FOUND, and nothing changes")
  void anotherUsers() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    Share share = storage.createShare(share(alice.id(), c.id(), "qs_alice", null)).await();

    assertFails(storage.createShare(share(bob.id(), c.id(), "qs_bob", null)), Failure.NOT_FOUND,
        "Conversation not found");
    assertFails(storage.revokeShare(bob.id(), share.id()), Failure.NOT_FOUND, "Share not found");
    assertThat(storage.shares(bob.id()).await()).isEmpty();
    assertThat(storage.openShare(Sha256.hex("qs_alice")).await().share().revokedAt()).isNull();
  }

  @Test
  @DisplayName("a message share names an answer of the conversation; a question or another conversation's is NOT_FOUND")
  void messageShare() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    Conversation other = storage.createConversation(alice.id(), "Other").await();
    ChatMessage question = storage.appendMessage(alice.id(), ChatMessage.user(c.id(), "How many?")).await();
    ChatMessage answer = storage.appendMessage(alice.id(), answer(null, c.id(), "Three.", ChatMessage.COMPLETE,
        null)).await();
    NewShare ok = new NewShare(UUID.randomUUID().toString(), alice.id(), Shares.MESSAGE, c.id(), answer.id(), null,
        Shares.USERS, Shares.DEFAULT_NAME, null, Sha256.hex("qs_m"));
    assertThat(storage.createShare(ok).await().messageId()).isEqualTo(answer.id());

    for (NewShare wrong : List.of(
        new NewShare(UUID.randomUUID().toString(), alice.id(), Shares.MESSAGE, c.id(), question.id(), null,
            Shares.USERS,
            "x", null, Sha256.hex("qs_q")),
        new NewShare(UUID.randomUUID().toString(), alice.id(), Shares.MESSAGE, other.id(), answer.id(), null,
            Shares.USERS,
            "x", null, Sha256.hex("qs_o")))) {
      assertFails(storage.createShare(wrong), Failure.NOT_FOUND, "Message not found");
    }
  }

  @Test
  @DisplayName("at most maxSharesPerUser live links: the last one fits, the next is CONFLICT; a revoked one frees its place")
  void cap() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    storage.createShare(share(alice.id(), c.id(), "qs_old", Timestamps.format(Instant.now().minusSeconds(1))))
        .await();
    Share first = null;
    for (int i = 0; i < MAX; i++) {
      Share made = storage.createShare(share(alice.id(), c.id(), "qs_" + i, null)).await();
      first = first == null ? made : first;
    }
    assertFails(storage.createShare(share(alice.id(), c.id(), "qs_past", null)), Failure.CONFLICT,
        "You have 3 live share links, the most one account may have: revoke one to share again");
    assertThat(storage.createShare(share(bob.id(), storage.createConversation(bob.id(), "B").await().id(), "qs_bob",
        null)).await()).as("another user's count is their own").isNotNull();

    storage.revokeShare(alice.id(), first.id()).await();
    assertThat(storage.createShare(share(alice.id(), c.id(), "qs_again", null)).await()).isNotNull();
  }

  @Test
  @DisplayName("deleting a conversation deletes its shares: the link opens nothing")
  void deletedWithConversation() {
    Conversation c = storage.createConversation(alice.id(), "Fuel").await();
    storage.createShare(share(alice.id(), c.id(), "qs_gone", null)).await();
    storage.deleteConversation(alice.id(), c.id()).await();
    assertFails(storage.openShare(Sha256.hex("qs_gone")), Failure.NOT_FOUND, Shares.NOT_FOUND);
    assertThat(storage.shares(alice.id()).await()).isEmpty();
  }
}
