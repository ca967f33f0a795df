package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.StorageClient;
import io.vertx.core.Future;
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

  /** Saves the final message after any checkpoint still on its way. */
  Future<Void> finish(ChatMessage message) {
    cancel();
    return save(message);
  }

  void cancel() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  private Future<Void> save(ChatMessage message) {
    last = last.transform(previous -> storage.appendMessage(userId, message).mapEmpty());
    return last;
  }
}
