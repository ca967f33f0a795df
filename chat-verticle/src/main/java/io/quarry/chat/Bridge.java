package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Operation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.NetSocket;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The event-bus bridge for applications that are not Vert.x members of the cluster: Vert.x's TCP event-bus bridge
 * protocol (length-prefixed JSON frames) on a port of its own, off unless {@code chat.bridgePort} names one. It serves
 * the public operations only ({@link ApiOps}), each bound to the user of the API token its connection signed in with
 * ({@link BridgeConnection}). Not the library's bridge: that one reads a frame of any length before anyone has signed
 * in, and hands failures over as text.
 */
final class Bridge {

  private static final Logger log = LoggerFactory.getLogger(Bridge.class);

  /** What a token's user may ask: every public operation but the look-up of users, who are the token's. */
  static final Map<String, Operation<?, ?>> OPERATIONS = ApiOps.ALL.stream()
      .filter(op -> op != ApiOps.USER_LOCAL && op != ApiOps.USER_FIND)
      .collect(Collectors.toUnmodifiableMap(Operation::address, Function.identity()));

  /** A connection silent this long is closed: a client that follows its events pings to stay. */
  static final int IDLE_SECONDS = 300;

  private final Vertx vertx;
  private final Bus bus;
  private final int maxConnections;
  private int open;

  Bridge(Vertx vertx, Bus bus, int maxConnections) {
    this.vertx = vertx;
    this.bus = bus;
    this.maxConnections = maxConnections;
  }

  /** Tokens must not cross a network in the clear: off loopback the bridge runs TLS or does not start. */
  Future<NetServer> listen(ChatSettings.BridgeSettings settings, boolean loopback) {
    if (!loopback && !settings.tls()) {
      return Future.failedFuture(new IllegalArgumentException("The event-bus bridge would listen on " + settings.host()
          + ", off loopback, in the clear: its API tokens would cross the network readable. Set chat.bridgeCertFile"
          + " and chat.bridgeKeyFile (QUARRY_BRIDGE_CERT_FILE, QUARRY_BRIDGE_KEY_FILE), or listen on 127.0.0.1"));
    }
    NetServerOptions options = new NetServerOptions().setIdleTimeout(IDLE_SECONDS);
    if (settings.tls()) {
      options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions().setCertPath(settings.certFile())
          .setKeyPath(settings.keyFile()));
    }
    return vertx.createNetServer(options)
        .connectHandler(this::accept)
        .listen(settings.port(), settings.host())
        .onSuccess(server -> log.info("Event-bus bridge listening on {}:{}{}", settings.host(), server.actualPort(),
            settings.tls() ? " (TLS)" : ""));
  }

  private void accept(NetSocket socket) {
    if (open >= maxConnections) {
      socket.write(BridgeFrames.encode(BridgeFrames.refused("The bridge has " + maxConnections
          + " connections: try again shortly")));
      socket.close();
      return;
    }
    open++;
    new BridgeConnection(vertx, bus, socket, OPERATIONS, () -> open--).start();
  }
}
