package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Failure;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Argon2 on a pool of its own: hashes side by side, a bounded queue, and the same work for an unknown account. */
@ExtendWith(VertxExtension.class)
class PasswordsTest {

  /** Starts {@code count} calls at once from an event loop, as the HTTP edge makes them. */
  private static <T> List<Future<T>> onEventLoop(Vertx vertx, int count, Supplier<Future<T>> call) {
    Promise<List<Future<T>>> started = Promise.promise();
    vertx.runOnContext(v -> {
      List<Future<T>> calls = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        calls.add(call.get());
      }
      started.complete(calls);
    });
    return started.future().await();
  }

  private static <T> T one(Vertx vertx, Supplier<Future<T>> call) {
    return onEventLoop(vertx, 1, call).get(0).await();
  }

  @Test
  @DisplayName("sign-ins hash side by side: one never waits for another's hash to finish first")
  void sideBySide(Vertx vertx) {
    Passwords passwords = new Passwords(vertx, 2, 64);
    String hash = one(vertx, () -> passwords.hash("correct horse"));
    List<Future<Boolean>> checks = onEventLoop(vertx, 8, () -> passwords.matches("wrong horse", hash));
    Future.all(checks).await();
    assertThat(checks).allMatch(c -> !c.result());
    assertThat(passwords.peak()).isEqualTo(2);
  }

  @Test
  @DisplayName("past the queue's bound a sign-in is told to come back (503) instead of waiting behind a flood")
  void boundedQueue(Vertx vertx) {
    Passwords passwords = new Passwords(vertx, 1, 3);
    List<Future<String>> hashes = onEventLoop(vertx, 5, () -> passwords.hash("a password"));
    Future.join(hashes).otherwiseEmpty().await();
    assertThat(hashes.stream().filter(Future::succeeded)).hasSize(3);
    assertThat(hashes.stream().filter(Future::failed).map(Future::cause)).hasSize(2).allSatisfy(e -> {
      assertThat(Failure.classify(e)).isEqualTo(Failure.UNAVAILABLE);
      assertThat(e).hasMessage(Passwords.BUSY);
    });
    assertThat(one(vertx, () -> passwords.hash("a password"))).startsWith("$argon2id$");
  }

  @Test
  @DisplayName("an account that does not exist costs one hash, like a wrong password, and never matches")
  void unknownAccount(Vertx vertx) {
    Passwords passwords = new Passwords(vertx, 2, 64);
    String hash = one(vertx, () -> passwords.hash("correct horse"));
    long before = passwords.computed();
    assertThat(one(vertx, () -> passwords.matches("not a password of anybody", null))).isFalse();
    assertThat(passwords.computed()).isEqualTo(before + 1);
    assertThat(one(vertx, () -> passwords.matches("wrong horse", hash))).isFalse();
    assertThat(one(vertx, () -> passwords.matches("correct horse", hash))).isTrue();
    assertThat(passwords.computed()).isEqualTo(before + 3);
  }
}
