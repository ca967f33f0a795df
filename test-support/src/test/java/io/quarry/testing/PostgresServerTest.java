package io.quarry.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;

class PostgresServerTest {

  /** A port taken between the test finding it free and the server binding it (the CI failure of 2026-11-29). */
  @Test
  void aTakenPortIsLeftForAnother() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
        ServerSocket spare = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int free = spare.getLocalPort();
      spare.close();
      Deque<Integer> ports = new ArrayDeque<>(java.util.List.of(taken.getLocalPort(), free));
      PostgresServer server = PostgresServer.start(ports::pop);
      try {
        assertEquals(free, server.port());
        assertNotEquals(taken.getLocalPort(), server.port());
        server.newDatabase();
      } finally {
        server.stop();
      }
    }
  }
}
