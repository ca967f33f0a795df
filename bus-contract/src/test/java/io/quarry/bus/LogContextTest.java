package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LogContextTest {

  final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a message carries its sender's fields to its handler and the handler's callbacks, and no further")
  void acrossTheBus() {
    LogContext.install(vertx.eventBus());
    List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer("test.log", msg -> {
      seen.add(LogContext.current());
      vertx.timer(1).onComplete(t -> {
        seen.add(LogContext.current());
        msg.reply(new JsonObject());
      });
    }).completion().await();

    send(Map.of(LogContext.CONVERSATION_ID, "c-1", LogContext.MESSAGE_ID, "m-1"));
    send(Map.of(LogContext.REQUEST_ID, "r-2"));

    assertThat(seen).containsExactly(
        Map.of(LogContext.CONVERSATION_ID, "c-1", LogContext.MESSAGE_ID, "m-1"),
        Map.of(LogContext.CONVERSATION_ID, "c-1", LogContext.MESSAGE_ID, "m-1"),
        Map.of(LogContext.REQUEST_ID, "r-2"),
        Map.of(LogContext.REQUEST_ID, "r-2"));
  }

  @Test
  @DisplayName("a verticle's own context (not one request's) takes no fields, so none outlives what it was about")
  void notOnSharedContexts() {
    Promise<Map<String, String>> seen = Promise.promise();
    vertx.runOnContext(v -> {
      LogContext.put(LogContext.REQUEST_ID, "leaks?");
      seen.complete(LogContext.current());
    });
    assertThat(seen.future().await()).isEmpty();
  }

  private void send(Map<String, String> fields) {
    ContextInternal own = ((ContextInternal) vertx.getOrCreateContext()).duplicate();
    Promise<Void> answered = Promise.promise();
    own.runOnContext(v -> {
      fields.forEach(LogContext::put);
      vertx.eventBus().request("test.log", new JsonObject()).<Void>mapEmpty().onComplete(answered);
    });
    answered.future().await();
  }
}
