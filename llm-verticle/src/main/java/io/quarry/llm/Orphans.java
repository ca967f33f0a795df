package io.quarry.llm;

import io.quarry.bus.MembersLeaving;
import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whose llm node left the cluster (killed, or cut off): each ends for the browser with a chat_error, its
 * answer is kept as far as it was saved and marked interrupted, its queries are stopped and its conversation is
 * free again. Every llm verticle hears a member leave; the one whose conditional remove of a claim succeeds
 * handles that turn, so each is handled exactly once. Claims of nodes that died while no llm node was up to hear
 * it are found when one starts.
 */
final class Orphans {

  private static final Logger log = LoggerFactory.getLogger(Orphans.class);
  static final String ERROR = "The server writing this answer stopped. What it had written is kept; ask again to"
      + " continue.";
  static final String NOTICE = "This answer was interrupted when the server writing it stopped.";

  private final Vertx vertx;
  private final TurnRegistry registry;
  private final StorageClient storage;
  private final DatasetClient datasets;

  Orphans(Vertx vertx, TurnRegistry registry, StorageClient storage, DatasetClient datasets) {
    this.vertx = vertx;
    this.registry = registry;
    this.storage = storage;
    this.datasets = datasets;
  }

  /** Listens for members leaving, then settles what nodes no longer alive left behind. */
  Future<Void> watch() {
    EventBus bus = vertx.eventBus();
    return MembersLeaving.listen(bus, left -> settle(left::equals))
        .completion()
        .compose(v -> vertx.sharedData().<String, Object>getAsyncMap(Addresses.NODES_MAP))
        .compose(nodes -> nodes.keys())
        .compose(alive -> settle(node -> !node.equals(registry.nodeId) && !alive.contains(node)));
  }

  private Future<Void> settle(Predicate<String> gone) {
    return registry.all()
        .compose(claims -> Future.join(claims.stream().filter(c -> gone.test(c.nodeId()))
            .map(c -> end(c, "its llm node left")).toList()))
        .onFailure(e -> log.warn("Could not settle the turns of a node that left: {}", e.getMessage()))
        .mapEmpty();
  }

  /**
   * Every survivor settles the answer in storage (interrupting is idempotent); the one whose removal of the claim
   * succeeded tells the browser. Hazelcast may run a removal again after it was applied (its partition moved), and
   * then tells no one it succeeded: the answer is still settled, and a reload shows it. {@code why}: for the log.
   */
  Future<Void> end(TurnClaim claim, String why) {
    return registry.release(claim).compose(mine -> {
      if (mine) {
        log.warn("The turn in conversation {} (llm node {}) is settled, {}: an answer still streaming is marked"
            + " interrupted", claim.conversationId(), claim.nodeId(), why);
        datasets.stopQueries(claim.messageId());
      }
      return storage.interruptMessage(claim.userId(), claim.conversationId(), claim.messageId(), NOTICE)
          .transform(stored -> {
            if (mine) {
              Events events = new Events(vertx.eventBus(), claim.userId(), claim.conversationId());
              events.emit(stored.succeeded() && ended(stored.result().status()) ? completed(stored.result())
                  : ChatEvents.chatError(claim.conversationId(), claim.messageId(), ERROR, null));
            }
            return Future.<Void>succeededFuture();
          });
    });
  }

  /** The answer was saved whole, and only the news of it was lost with the node. */
  private static boolean ended(String status) {
    return ChatMessage.COMPLETE.equals(status) || ChatMessage.DECLINED.equals(status);
  }

  private static JsonObject completed(ChatMessage message) {
    return ChatEvents.chatComplete(message.conversationId(), message.id(), message.inputTokens(),
        message.outputTokens(), message.notice());
  }
}
