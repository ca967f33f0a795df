package io.quarry.llm;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** A fresh {@link TurnHarness}, and so a fresh conversation, for every test. */
@ExtendWith(VertxExtension.class)
abstract class TurnTestBase {

  TurnHarness turn;

  /** Whose API the model server speaks: every test runs against Gemini's, and its OpenAi subclass's against OpenAI's. */
  String provider() {
    return ModelSettings.GEMINI;
  }

  /** Settings of the {@code llm} section for this class's tests, over the defaults. */
  JsonObject llmConfig() {
    return new JsonObject();
  }

  @BeforeEach
  void startTurns(Vertx vertx) {
    turn = new TurnHarness(vertx, llmConfig(), provider());
  }

  @AfterEach
  void stopTurns() {
    turn.close();
  }
}
