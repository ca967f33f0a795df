package io.quarry.app;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node wired to the fake Gemini, a browser-like WebSocket, and one fresh conversation per test. A class whose tests
 * need nothing of a node but their own conversations shares one ({@link #sharesNode}, {@link SharedNodes}).
 */
abstract class ChatTestBase {

  @TempDir
  Path dir;

  /** The running test (for {@link #env()} when a class's tests need different nodes). */
  TestInfo test;
  ChatHarness chat;
  ChatHarness.Socket socket;
  String conversation;

  /** Extra environment for the node, for classes that need other limits. */
  Map<String, String> env() {
    return Map.of();
  }

  /**
   * Whether the class's tests share one node, each starting with no conversation but its own, a fake Gemini without
   * scripts and files at addresses no cache has seen (see {@link ChatHarness#reset}). Not for tests that count what
   * a node did since it started, or need a node of their own settings.
   */
  boolean sharesNode() {
    return false;
  }

  @BeforeEach
  void startChat(TestInfo test) {
    this.test = test;
    chat = sharesNode() ? SharedNodes.get(nodeEnv()) : new ChatHarness(dir, nodeEnv());
    socket = chat.socket();
    conversation = chat.conversation();
  }

  private Map<String, String> nodeEnv() {
    return SharedNodes.oneWorker(env());
  }

  /** Runs SQL in the test's conversation over REST; anything but 200 fails the test, saying what the node said. */
  JsonObject query(String sql) {
    HttpResponse<Buffer> ran = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", sql));
    org.assertj.core.api.Assertions.assertThat(ran.statusCode()).as(ran.bodyAsString()).isEqualTo(200);
    return ran.bodyAsJsonObject();
  }

  @AfterAll
  static void closeNodesOfOtherSettings() {
    SharedNodes.classEnded();
  }

  @AfterEach
  void stopChat() {
    socket.close();
    if (!sharesNode()) {
      chat.close();
    }
  }

}
