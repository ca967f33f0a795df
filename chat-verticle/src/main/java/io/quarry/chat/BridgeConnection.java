package io.quarry.chat;

import io.quarry.bus.Addresses;
import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.BusFailure;
import io.quarry.bus.Deliveries;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.Operation;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps.TokenUser;
import io.quarry.bus.TokenScope;
import io.quarry.bus.StorageOps;
import io.quarry.bus.StorageOps.TokenHash;
import io.quarry.bus.User;
import io.quarry.chat.BridgeFrames.Incoming;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.Map;

/**
 * One client of the bridge. It signs in first, sending its API token to {@link Addresses#BRIDGE_LOGIN}; then it may
 * send the public operations, each acting for the token's user whatever {@code user_id} it names, and follow that
 * user's events. The token is looked up again at every request, so that a revoked or expired one stops at once, and
 * each request draws on the token's pace ({@link TokenPace}). Frames larger
 * than {@link #MAX_FRAME_BYTES} (before signing in, {@link #MAX_FRAME_BYTES_UNSIGNED}), a client that has not signed in
 * within {@link #SIGN_IN_MS}, one whose unfinished frames would pass its user's or the node's bound ({@link
 * FrameMemory}) or that holds one unfinished for the bridge's frame timeout, one that does not read its events as fast
 * as they come, or one that speaks anything but the protocol, are cut off; one that does not read its answers is read
 * no further until it does.
 */
final class BridgeConnection {

  /** The largest frame a client may send: room for the longest SQL or question, escaped. */
  static final int MAX_FRAME_BYTES = ApiOps.BRIDGE_MAX_FRAME_BYTES;
  /**
   * The largest frame before signing in (a sign-in is a few hundred bytes): a thousand connections that never sign in
   * hold a few megabytes of this node's memory, not a gigabyte.
   */
  static final int MAX_FRAME_BYTES_UNSIGNED = ApiOps.BRIDGE_MAX_SIGN_IN_FRAME_BYTES;
  static final long SIGN_IN_MS = 10_000;
  static final int SIGN_IN_TRIES = 3;
  /** Requests one connection may have waiting for their answers. */
  static final int MAX_IN_FLIGHT = 32;
  static final String SIGN_IN_FIRST = "Sign in first: send {\"token\": \"...\"} to " + Addresses.BRIDGE_LOGIN;
  static final String BAD_TOKEN = "Unknown or revoked token";
  /** How often a signed-in connection's token is looked up again when it sends nothing. */
  static final long RECHECK_MS = 30_000;

  private final Vertx vertx;
  private final Bus bus;
  private final NetSocket socket;
  private final Map<String, Operation<?, ?>> operations;
  private final Bridge bridge;
  /** Set once signed in: the token's hash (to look it up again) and its user. */
  private String tokenHash;
  private String userId;
  private RecordParser parser;
  private MessageConsumer<JsonObject> events;
  private int inFlight;
  private int frameLength = -1;
  private long recheck = -1;
  private long signInDeadline;
  private boolean signingIn;
  private boolean ended;
  /** Cut off: what still arrives is not read. */
  private boolean closing;
  private int failedSignIns;
  /** Bytes of frames not yet finished, held in {@link Bridge#memory()}. */
  private long held;
  private long stalled = -1;
  private boolean paused;

  BridgeConnection(Vertx vertx, Bus bus, NetSocket socket, Map<String, Operation<?, ?>> operations, Bridge bridge) {
    this.vertx = vertx;
    this.bus = bus;
    this.socket = socket;
    this.operations = operations;
    this.bridge = bridge;
  }

  void start() {
    parser = RecordParser.newFixed(4);
    parser.handler(bytes -> {
      release(bytes.length());
      if (frameLength < 0) {
        length(bytes.getInt(0));
      } else {
        frameLength = -1;
        parser.fixedSizeMode(4);
        frame(bytes);
      }
    });
    socket.handler(this::received);
    socket.closeHandler(v -> ended());
    socket.exceptionHandler(e -> socket.close());
    signInDeadline = vertx.setTimer(SIGN_IN_MS, t -> {
      if (tokenHash == null) {
        cutOff("Not signed in within " + SIGN_IN_MS / 1000 + " s");
      }
    });
  }

  /** Bytes arrived: held until the frames they belong to are finished, within this node's bounds. */
  private void received(Buffer bytes) {
    if (closing) {
      return;
    }
    switch (bridge.memory().hold(userId, bytes.length())) {
      case OVER_USER -> cutOff("This user's connections hold " + bridge.memory().userMax()
          + " bytes of unfinished frames: finish one before starting more");
      case OVER_NODE -> cutOff("The bridge holds " + bridge.memory().nodeMax()
          + " bytes of unfinished frames: try again shortly");
      case HELD -> {
        held += bytes.length();
        parser.handle(bytes);
        watchStall();
      }
    }
  }

  private void release(int bytes) {
    held -= bytes;
    bridge.memory().release(userId, bytes);
    if (stalled >= 0) {
      vertx.cancelTimer(stalled);
      stalled = -1;
    }
  }

  /** Bytes held with no frame finished within the bridge's frame timeout end the connection, unless the bridge waits. */
  private void watchStall() {
    if (held > 0 && stalled < 0 && !paused) {
      long ms = bridge.frameTimeoutMs();
      stalled = vertx.setTimer(ms, t -> {
        stalled = -1;
        cutOff("No frame finished within " + (ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms"));
      });
    }
  }

  private void length(int length) {
    int max = tokenHash == null ? MAX_FRAME_BYTES_UNSIGNED : MAX_FRAME_BYTES;
    if (length < 2 || length > max) {
      cutOff("A frame must hold 2 to " + max + " bytes of JSON" + (tokenHash == null ? " before signing in" : ""));
      return;
    }
    frameLength = length;
    parser.fixedSizeMode(length);
  }

  private void frame(Buffer bytes) {
    JsonObject frame;
    try {
      frame = new JsonObject(bytes);
    } catch (DecodeException | ClassCastException e) {
      cutOff("A frame must be a JSON object");
      return;
    }
    Incoming incoming = Incoming.of(frame);
    switch (String.valueOf(incoming.type())) {
      case "ping" -> write(BridgeFrames.pong());
      case "send" -> send(incoming);
      case "register" -> register(incoming.address());
      case "unregister" -> unregister(incoming.address());
      default -> write(BridgeFrames.refused("unknown_type: the bridge takes ping, send, register and unregister"));
    }
  }

  private void send(Incoming frame) {
    String address = frame.address();
    String replyAddress = frame.replyAddress();
    if (address == null || replyAddress == null) {
      write(BridgeFrames.refused("A request names its address and a replyAddress"));
      return;
    }
    if (!(frame.body() instanceof JsonObject body)) {
      fail(replyAddress, address, new QuarryException(Failure.BAD_REQUEST, "The body must be a JSON object"));
      return;
    }
    if (Addresses.BRIDGE_LOGIN.equals(address)) {
      if (tokenHash == null && !signingIn) {
        signIn(replyAddress, frame.token());
      } else {
        fail(replyAddress, address, new QuarryException(Failure.CONFLICT, "This connection is signed in already,"
            + " or signing in"));
      }
      return;
    }
    Operation<?, ?> op = operations.get(address);
    if (Addresses.API_QUERY_EXPORT.equals(address)) {
      fail(replyAddress, address, QuarryException.badRequest(Export.NOT_ON_BRIDGE));
    } else if (op == null) {
      fail(replyAddress, address, new QuarryException(Failure.NOT_FOUND, address + " is not a public operation"));
    } else if (tokenHash == null) {
      fail(replyAddress, address, new QuarryException(Failure.UNAUTHORIZED, SIGN_IN_FIRST));
    } else if (inFlight >= MAX_IN_FLIGHT) {
      fail(replyAddress, address, new QuarryException(Failure.RATE_LIMITED, "This connection has " + MAX_IN_FLIGHT
          + " requests waiting for their answers: wait for one"));
    } else {
      request(op, address, replyAddress, body);
    }
  }

  /** A token is 256 random bits, so guessing is hopeless; still, a connection gets {@link #SIGN_IN_TRIES} tries. */
  private void signIn(String replyAddress, String token) {
    String hash = Sha256.hex(token);
    signingIn = true;
    bridge.signingIn(this);
    user(hash)
        .onComplete(done -> signingIn = false)
        .onSuccess(found -> signedIn(replyAddress, hash, found.user()))
        .onFailure(e -> {
          fail(replyAddress, Addresses.BRIDGE_LOGIN, e);
          if (++failedSignIns >= SIGN_IN_TRIES) {
            cutOff("Too many failed sign-ins");
          } else if (!ended) {
            bridge.notSignedIn(this, socket);
          }
        });
  }

  private void signedIn(String replyAddress, String hash, User user) {
    if (ended) {
      return;
    }
    String full = bridge.signedIn(user.id());
    if (full != null) {
      fail(replyAddress, Addresses.BRIDGE_LOGIN, new QuarryException(Failure.RATE_LIMITED, full));
      cutOff(full);
      return;
    }
    tokenHash = hash;
    userId = user.id();
    bridge.memory().signedIn(userId, held);
    recheck = vertx.setPeriodic(RECHECK_MS, this::recheck);
    write(BridgeFrames.reply(replyAddress, new JsonObject().put("user_id", user.id()).put("email", user.email())));
  }

  /** The token's user; UNAUTHORIZED once it is revoked (or was never known). */
  private Future<TokenUser> user(String hash) {
    return unknownRefused(StorageOps.TOKEN_FIND.call(bus, new TokenHash(hash)));
  }

  /** A token look-up that found none fails UNAUTHORIZED {@link #BAD_TOKEN}, at every door that takes tokens. */
  static Future<TokenUser> unknownRefused(Future<TokenUser> lookup) {
    return lookup.recover(e -> Failure.classify(e) == Failure.NOT_FOUND
        ? Future.failedFuture(new QuarryException(Failure.UNAUTHORIZED, BAD_TOKEN)) : Future.failedFuture(e));
  }

  /**
   * As the token's user, whoever the body names: an application acts for the user it was given a token by, within the
   * token's scope and pace.
   */
  private void request(Operation<?, ?> op, String address, String replyAddress, JsonObject body) {
    inFlight++;
    TokenScope needed = TokenScope.neededFor(address);
    user(tokenHash)
        .compose(bridge.pace()::check)
        .compose(found -> found.scope().allows(needed)
            ? vertx.eventBus().<Object>request(address, body.copy().put("user_id", found.user().id()),
                Deliveries.within(op.timeoutMs()))
            : Future.failedFuture(new QuarryException(Failure.FORBIDDEN, found.scope().refusal(needed))))
        .map(Message::body)
        .onComplete(answer -> {
          inFlight--;
          if (answer.succeeded()) {
            write(BridgeFrames.reply(replyAddress, answer.result()));
          } else {
            fail(replyAddress, address, answer.cause());
          }
        });
  }

  /**
   * Follows the user's events. The frames after it wait until every node knows of the registration, so that a question
   * asked next cannot be answered before it.
   */
  private void register(String address) {
    if (userId == null) {
      write(BridgeFrames.refused(SIGN_IN_FIRST));
    } else if (!Addresses.chatEvents(userId).equals(address)) {
      write(BridgeFrames.refused("access_denied: a client follows its own user's events only, "
          + Addresses.chatEvents(userId)));
    } else if (events == null) {
      events = vertx.eventBus().consumer(address, this::event);
      pause();
      events.completion().onComplete(registered -> resume());
    }
  }

  /** A connection that only follows events asks no more: its token is checked now and then (revoked, expired). */
  private void recheck(long timer) {
    user(tokenHash).onFailure(e -> {
      if (Failure.classify(e) == Failure.UNAUTHORIZED) {
        vertx.cancelTimer(timer);
        cutOff(e.getMessage());
      }
    });
  }

  private void unregister(String address) {
    if (events != null && events.address().equals(address)) {
      events.unregister();
      events = null;
    } else {
      write(BridgeFrames.refused("unknown_address"));
    }
  }

  /** A client that cannot keep up with its own events would hold them in this node's memory: it is cut off. */
  private void event(Message<JsonObject> message) {
    if (socket.writeQueueFull()) {
      cutOff("Events came faster than this connection read them");
      return;
    }
    write(BridgeFrames.event(message.address(), message.body()));
  }

  private void fail(String replyAddress, String address, Throwable e) {
    write(BridgeFrames.failure(replyAddress, address, BusFailure.of(e)));
  }

  /**
   * A client that sends requests and does not read their answers would pile them up in this node's memory: reading
   * its frames waits until it has taken what was written.
   */
  private void write(JsonObject frame) {
    socket.write(BridgeFrames.encode(frame));
    if (socket.writeQueueFull() && parser != null) {
      pause();
      socket.drainHandler(v -> resume());
    }
  }

  /** The bridge reads no further, neither parsing what it holds nor taking more from the socket. */
  private void pause() {
    paused = true;
    parser.pause();
    socket.pause();
    if (stalled >= 0) {
      vertx.cancelTimer(stalled);
      stalled = -1;
    }
  }

  private void resume() {
    paused = false;
    parser.resume();
    socket.resume();
    watchStall();
  }

  void cutOff(String why) {
    if (!closing) {
      closing = true;
      write(BridgeFrames.refused(why));
      socket.close();
    }
  }

  private void ended() {
    ended = true;
    vertx.cancelTimer(signInDeadline);
    if (stalled >= 0) {
      vertx.cancelTimer(stalled);
    }
    bridge.memory().release(userId, held);
    held = 0;
    if (recheck >= 0) {
      vertx.cancelTimer(recheck);
    }
    if (events != null) {
      events.unregister();
    }
    bridge.closed(this, userId);
  }
}
