package io.quarry.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import java.util.Set;

/**
 * A TLS handshake with a member's event bus. {@link #asMember} makes it with the settings the bus makes its own
 * connections with: whether messages from here to there can be delivered. In TLS 1.2, in which the server checks the
 * client's certificate before the handshake ends, so that a refusal either way fails the handshake itself (in 1.3 the
 * client hears of it only later).
 */
public final class BusProbe implements AutoCloseable {

  /** How long a member's handshake may take: the bus's own default. */
  public static final int HANDSHAKE_MS = 10_000;
  /** A TLS server answers a hello within this on any network a cluster runs on; a bus in the clear never does. */
  static final int HELLO_MS = 2_000;

  private final NetClient client;

  private BusProbe(Vertx vertx, NetClientOptions options) {
    this.client = vertx.createNetClient(options.setHostnameVerificationAlgorithm(""));
  }

  /** As the event bus of {@code bus}'s options (TLS on) connects: whether it can deliver there. */
  public static BusProbe asMember(Vertx vertx, EventBusOptions bus) {
    return new BusProbe(vertx, new NetClientOptions(bus.toJson())
        .setEnabledSecureTransportProtocols(Set.of("TLSv1.2"))
        .setSslHandshakeTimeout(HANDSHAKE_MS)
        .setConnectTimeout(HANDSHAKE_MS));
  }

  /**
   * Whether a bus answers TLS at all: trusting any certificate and showing none, in TLS 1.3, whose client finishes its
   * handshake before the server judges its (missing) certificate.
   */
  public static BusProbe anyTls(Vertx vertx) {
    return new BusProbe(vertx, new NetClientOptions().setSsl(true).setTrustAll(true)
        .setSslHandshakeTimeout(HELLO_MS).setConnectTimeout(HELLO_MS));
  }

  /** Succeeds when the member's bus completes the handshake, and fails with why it did not. */
  public Future<Void> handshake(NodeInfo member) {
    return client.connect(member.port(), member.host()).compose(socket -> socket.close());
  }

  @Override
  public void close() {
    client.close();
  }
}
