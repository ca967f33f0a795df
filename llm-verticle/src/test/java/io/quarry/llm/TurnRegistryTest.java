package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(VertxExtension.class)
class TurnRegistryTest {

  @Test
  @DisplayName("a claim that Hazelcast applied before running it again (its partition moved) is the claimant's;"
      + " anybody else's claim keeps the conversation busy")
  void claimAppliedTwice(Vertx vertx) {
    TurnRegistry registry = TurnRegistry.open(vertx, "node-1", java.util.function.UnaryOperator.identity()).await();
    TurnClaim claim = registry.claimFor("user", "conversation", "message-1");
    // As a first run of the operation left it before Hazelcast ran it again.
    vertx.sharedData().<String, String>getAsyncMap(Addresses.TURNS_MAP)
        .compose(map -> map.put(claim.conversationId(), claim.encode())).await();

    assertThat(registry.claim(claim).await()).as("the claim found is this one").isTrue();
    assertThat(registry.claim(registry.claimFor("user", "conversation", "message-2")).await())
        .as("another question's claim").isFalse();
  }
}
