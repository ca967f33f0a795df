package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Export;
import io.quarry.bus.Operation;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.NetSocket;
import java.util.HashMap;
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
 *
 * <p>Connections that have not signed in have places of their own, apart from signed-in ones: a full house of them
 * gives up the one that waited longest, never one in its first second ({@link WaitingLine}), so that a flood of
 * connections that never sign in cannot keep out a client that does. Confined to the verticle's event loop.
 */
final class Bridge {

  private static final Logger log = LoggerFactory.getLogger(Bridge.class);

  /**
   * What a token's user may ask: every public operation but the look-up of users, who are the token's, and the export,
   * whose file a bridge client could not read ({@link Export#NOT_ON_BRIDGE}).
   */
  static final Map<String, Operation<?, ?>> OPERATIONS = ApiOps.ALL.stream()
      .filter(op -> op != ApiOps.USER_LOCAL && op != ApiOps.USER_FIND && op != ApiOps.QUERY_EXPORT)
      .collect(Collectors.toUnmodifiableMap(Operation::address, Function.identity()));

  /** A connection silent this long is closed: a client that follows its events pings to stay. */
  static final int IDLE_SECONDS = 300;

  private final Vertx vertx;
  private final Bus bus;
  private final ChatSettings.BridgeSettings settings;
  private final WaitingLine<BridgeConnection> waiting = new WaitingLine<>();
  private final Map<String, Integer> signedIn = new HashMap<>();
  private final FrameMemory memory;
  private final TokenPace pace;
  private int signed;
  private long trimming = -1;

  Bridge(Vertx vertx, Bus bus, ChatSettings.BridgeSettings settings, TokenPace pace) {
    this.vertx = vertx;
    this.bus = bus;
    this.settings = settings;
    this.pace = pace;
    this.memory = new FrameMemory(settings.maxFrameMemory(), settings.maxFrameMemoryPerUser());
  }

  /** Tokens must not cross a network in the clear: off loopback the bridge runs TLS or does not start. */
  Future<NetServer> listen(boolean loopback) {
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

  /**
   * Every connection is taken; past their grace, those that have not signed in keep at most {@code maxWaiting} places,
   * the longest waiting giving way.
   */
  private void accept(NetSocket socket) {
    BridgeConnection connection = new BridgeConnection(vertx, bus, socket, OPERATIONS, this);
    waiting.add(connection, address(socket));
    connection.start();
    trim();
  }

  /** Down to {@code maxWaiting} past their grace, now and again when the newest's grace ends. */
  private void trim() {
    while (waiting.aged() > settings.maxWaiting()) {
      waiting.giveUp().cutOff("Not signed in, and the bridge needed this connection's place for a newer one");
    }
    if (trimming < 0 && waiting.fresh() > 0) {
      long due = waiting.due(WaitingLine.GRACE_MS);
      trimming = vertx.setTimer(WaitingLine.GRACE_MS, t -> {
        trimming = -1;
        waiting.timerRan(due);
        trim();
      });
    }
  }

  FrameMemory memory() {
    return memory;
  }

  /** Each token's pace of requests, shared with the node's other doors. */
  TokenPace pace() {
    return pace;
  }

  long frameTimeoutMs() {
    return settings.frameTimeoutMs();
  }

  /** Its token is being looked up: it is not given up for a newcomer meanwhile. */
  void signingIn(BridgeConnection connection) {
    waiting.remove(connection);
  }

  /** Its token was refused: it waits again, as the newest. */
  void notSignedIn(BridgeConnection connection, NetSocket socket) {
    waiting.add(connection, address(socket));
  }

  /** Takes a signed-in place for {@code userId}; null when it has one, else why not. */
  String signedIn(String userId) {
    if (signed >= settings.maxConnections()) {
      return "The bridge has " + settings.maxConnections() + " signed-in connections: try again shortly";
    }
    int mine = signedIn.getOrDefault(userId, 0);
    if (mine >= settings.maxConnectionsPerUser()) {
      return "This user has " + settings.maxConnectionsPerUser() + " connections to the bridge: close one first";
    }
    signedIn.put(userId, mine + 1);
    signed++;
    return null;
  }

  /** A connection ended: its place, waiting or signed in ({@code userId}, else null), is free. */
  void closed(BridgeConnection connection, String userId) {
    waiting.remove(connection);
    if (userId != null) {
      signed--;
      signedIn.computeIfPresent(userId, (u, n) -> n > 1 ? n - 1 : null);
    }
  }

  private static String address(NetSocket socket) {
    return socket.remoteAddress() == null ? "" : socket.remoteAddress().hostAddress();
  }
}
