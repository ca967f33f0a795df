package io.quarry.app;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/** A node wired to the fake Gemini, a browser-like WebSocket, and one fresh conversation per test. */
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

  @BeforeEach
  void startChat(TestInfo test) {
    this.test = test;
    Map<String, String> env = new HashMap<>(env());
    // One worker process runs these tests' queries (MetricsTest, about each worker's metrics, asks for two): on two
    // cores a node with one starts in about half the time.
    env.putIfAbsent("QUARRY_LOCAL_WORKERS", "1");
    chat = new ChatHarness(dir, env);
    socket = chat.socket();
    conversation = chat.conversation();
  }

  @AfterEach
  void stopChat() {
    socket.close();
    chat.close();
  }
}
