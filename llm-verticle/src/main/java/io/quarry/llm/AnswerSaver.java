package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Saves an answer while it streams, on a timer and never per token, so that a server killed mid-answer keeps
 * what the user already read (storage marks it interrupted when it starts again). Saves go out one after
 * another, so a late checkpoint can never overwrite the final message.
 */
final class AnswerSaver {

  /**
   * How long the final message is tried again while storage cannot take it. A storage node killed under a save leaves
   * the bus sending to it for as long as the cluster takes to forget it — longer than a request's own tries when it
   * was the cluster's oldest member (15 s seen) — and a restarting database is back within seconds.
   */
  static final long FINAL_SAVE_MS = 60_000;
  static final long FIRST_PAUSE_MS = 500;
  static final long LONGEST_PAUSE_MS = 8_000;
  private static final Logger log = LoggerFactory.getLogger(AnswerSaver.class);

  private final Vertx vertx;
  private final StorageClient storage;
  private final String userId;
  private final long periodMs;
  private Future<Void> last = Future.succeededFuture();
  private JsonObject saved;
  private long timer = -1;

  AnswerSaver(Vertx vertx, StorageClient storage, String userId, long periodMs) {
    this.vertx = vertx;
    this.storage = storage;
    this.userId = userId;
    this.periodMs = periodMs;
  }

  /** {@code snapshot}: the answer as it stands, or null while there is nothing to keep. */
  void start(Supplier<ChatMessage> snapshot) {
    timer = vertx.setPeriodic(periodMs, id -> {
      ChatMessage message = snapshot.get();
      if (message != null && !message.toJson().equals(saved)) {
        saved = message.toJson();
        save(message).onFailure(e -> log.debug("Checkpoint of answer {} not saved: {}", message.id(), e.getMessage()));
      }
    });
  }

  /**
   * Saves the final message after any checkpoint still on its way. Until it is kept the answer reads as still being
   * written, so a failure storage may get over (nobody answered, or it could not write) is tried again, for up to
   * {@link #FINAL_SAVE_MS}; one it will not get over (the conversation is gone) fails at once.
   */
  Future<Void> finish(ChatMessage message) {
    cancel();
    long giveUpAt = System.nanoTime() + FINAL_SAVE_MS * 1_000_000;
    return save(message).recover(e -> again(message, e, FIRST_PAUSE_MS, giveUpAt));
  }

  void cancel() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  private Future<Void> again(ChatMessage message, Throwable failure, long pauseMs, long giveUpAt) {
    if (!recoverable(failure) || System.nanoTime() + pauseMs * 1_000_000 > giveUpAt) {
      return Future.failedFuture(failure);
    }
    log.info("Answer {} not saved yet ({}); trying again in {} ms", message.id(), failure.getMessage(), pauseMs);
    Promise<Void> done = Promise.promise();
    vertx.setTimer(pauseMs, t -> save(message)
        .recover(e -> again(message, e, Math.min(2 * pauseMs, LONGEST_PAUSE_MS), giveUpAt))
        .onComplete(done));
    return done.future();
  }

  /** Storage unreachable, or failing on its side: what a storage node's death or a database's restart looks like. */
  private static boolean recoverable(Throwable failure) {
    Failure kind = Failure.classify(failure);
    return kind == Failure.UNAVAILABLE || kind == Failure.INTERNAL || kind == Failure.TIMEOUT;
  }

  private Future<Void> save(ChatMessage message) {
    last = last.transform(previous -> storage.appendMessage(userId, message).mapEmpty());
    return last;
  }
}
