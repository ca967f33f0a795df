package io.quarry.bus.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.Vertx;
import io.vertx.core.http.StreamResetException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutboundHttpTest {

  @TempDir
  Path dir;

  final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  @DisplayName("a CA file that cannot be read stops the start, naming the setting: no add learns of it later")
  void missingCaFile() {
    String absent = dir.resolve("absent-ca.pem").toString();
    assertThatThrownBy(() -> new OutboundHttp(vertx, AddressPolicy.of(false, ""), 1_000, absent, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("originCaFile (QUARRY_ORIGIN_CA_FILE): no readable file at " + absent);
  }

  @Test
  @DisplayName("an HTTP/2 stream the server reset is said in words, with the code's name (a number when unknown)")
  void streamReset() {
    assertThat(OutboundHttp.reason(new StreamResetException(8)))
        .isEqualTo("The server cut the transfer short (HTTP/2 stream reset: CANCEL)");
    assertThat(OutboundHttp.reason(new StreamResetException(0x1f)))
        .isEqualTo("The server cut the transfer short (HTTP/2 stream reset: code 31)");
  }

  @Test
  @DisplayName("an HTTP/2 connection's window is 32 MB in a heap of 256 MB or more, an eighth of a smaller one, never"
      + " below a stream's 4 MB")
  void connectionWindowFitsTheHeap() {
    assertThat(OutboundHttp.connectionWindow(8L << 30)).isEqualTo(32 << 20);
    assertThat(OutboundHttp.connectionWindow(256L << 20)).isEqualTo(32 << 20);
    assertThat(OutboundHttp.connectionWindow(255L << 20)).isLessThan(32 << 20);
    assertThat(OutboundHttp.connectionWindow(64L << 20)).isEqualTo(8 << 20);
    assertThat(OutboundHttp.connectionWindow(16L << 20)).isEqualTo(4 << 20);
  }
}
