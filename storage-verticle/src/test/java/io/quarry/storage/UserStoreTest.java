package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Credentials;
import io.quarry.bus.Failure;
import io.quarry.bus.Timestamps;
import io.quarry.bus.User;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Users, invites and sessions. */
class UserStoreTest extends StorageTestBase {

  @Test
  @DisplayName("the local user is created once and found again")
  void localUser() {
    User first = storage.localUser().await();
    User second = storage.localUser().await();
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(first.email()).isNull();
  }

  @Test
  @DisplayName("sign-up consumes its invite: a used or unknown invite is refused, and a taken email uses its invite up"
      + " with the same answer, so one invite cannot probe for accounts")
  void usersAndInvites(Vertx vertx) throws Exception {
    String invite = storage.createInvite().await();
    User carol = storage.createUser("carol@example.com", "h", invite).await();
    assertThat(storage.user(carol.id()).await().email()).isEqualTo("carol@example.com");
    assertFails(storage.createUser("dave@example.com", "h", invite), Failure.BAD_REQUEST,
        "Invalid or already used invite");
    assertFails(storage.createUser("dave@example.com", "h", "no-such-invite"), Failure.BAD_REQUEST,
        "Invalid or already used invite");
    String fresh = storage.createInvite().await();
    assertThat(storage.inviteUsable(fresh).await()).isTrue();
    assertFails(storage.createUser("CAROL@example.com", "h", fresh), Failure.BAD_REQUEST,
        "Invalid or already used invite");
    assertThat(storage.inviteUsable(fresh).await()).isFalse();
    assertFails(storage.createUser("erin@example.com", "h", fresh), Failure.BAD_REQUEST,
        "Invalid or already used invite");
    assertThat(storage.inviteUsable("no-such-invite").await()).isFalse();
    assertThat(count("SELECT COUNT(*) FROM users WHERE email IN ('dave@example.com', 'erin@example.com')")).isZero();
    assertThat(count("SELECT COUNT(*) FROM users WHERE email = 'carol@example.com' COLLATE NOCASE")).isEqualTo(1);

    Credentials credentials = storage.credentials("carol@example.com").await();
    assertThat(credentials.passwordHash()).isEqualTo("h");
    assertThat(credentials.user().id()).isEqualTo(carol.id());
    assertFails(storage.credentials("nobody@example.com"), Failure.NOT_FOUND, "User not found");
  }

  @Test
  @DisplayName("a session finds its user until it expires or is deleted")
  void sessions() {
    String later = Timestamps.format(Instant.now().plus(Duration.ofDays(7)));
    storage.createSession(alice.id(), "live", later).await();
    storage.createSession(alice.id(), "expired", Timestamps.format(Instant.now().minusSeconds(1))).await();
    assertThat(storage.sessionUser("live").await().id()).isEqualTo(alice.id());
    assertFails(storage.sessionUser("expired"), Failure.NOT_FOUND, "Session not found");
    storage.deleteSession("live").await();
    assertFails(storage.sessionUser("live"), Failure.NOT_FOUND, "Session not found");
  }
}
