package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.LlmClient;
import io.quarry.bus.NodeStarts;
import io.quarry.testing.FakeDatasets;
import io.quarry.testing.FakeStorage;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The model's SDK warms up once the node has started ({@link NodeStarts}), not while it starts, where on two cores it
 * held the node's readiness up by about 0.3 s. No model is asked here: the key is one, the server an unused port.
 */
@ExtendWith(VertxExtension.class)
class SdkWarmUpTest {

  @BeforeEach
  void neighbours(Vertx vertx) {
    FakeStorage.start(vertx).await();
    FakeDatasets.start(vertx).await();
  }

  private static LlmVerticle deployed(Vertx vertx, JsonObject config) {
    LlmVerticle verticle = new LlmVerticle();
    vertx.deployVerticle(verticle, new DeploymentOptions().setConfig(config)).await();
    return verticle;
  }

  /** Answered on the llm verticle's event loop after whatever reached it before: the start's news included. */
  private static void checkpoint(Vertx vertx) {
    new LlmClient(vertx).status().await();
  }

  @Test
  @DisplayName("the llm verticle begins its model's SDK warm-up when its node says it has started, and not before")
  void afterTheNodeStarted(Vertx vertx) {
    LlmVerticle llm = deployed(vertx, new JsonObject().put("apiKey", "test-key").put("baseUrl", "http://127.0.0.1:9"));
    checkpoint(vertx);
    assertThat(llm.warmUpBegun()).as("warming up before the node has started").isFalse();

    NodeStarts.publish(vertx.eventBus());
    checkpoint(vertx);
    assertThat(llm.warmUpBegun()).isTrue();
  }

  @Test
  @DisplayName("a node without a model to ask (no API key) warms no SDK up")
  void noModelNoWarmUp(Vertx vertx) {
    LlmVerticle llm = deployed(vertx, new JsonObject());
    NodeStarts.publish(vertx.eventBus());
    checkpoint(vertx);
    assertThat(llm.warmUpBegun()).isFalse();
    assertThat(new LlmClient(vertx).status().await().available()).isFalse();
  }
}
