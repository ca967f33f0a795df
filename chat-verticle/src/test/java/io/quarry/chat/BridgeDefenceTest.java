package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Sha256;
import io.quarry.bus.StorageOps;
import io.quarry.bus.TokenScope;
import io.quarry.bus.User;
import io.quarry.testing.JarCommand;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bridge against clients that hold what they should not: connections that never sign in, frames never finished,
 * more connections than a user needs. Each client is a raw TCP socket in a Vert.x of its own, as an attacker's is.
 */
@ExtendWith(VertxExtension.class)
class BridgeDefenceTest {

  static final long WAIT_S = 30;
  static final int MIB = 1 << 20;

  Vertx outside = Vertx.vertx();
  /** The client with a token, in a process of its own: an attacker does not share its victim's event loops. */
  Vertx user = Vertx.vertx();
  /**
   * One client each, held for the test: a NetClient nothing references is closed when the garbage collector finds it,
   * and under the flood's garbage that came between a connect and its connection ("Client is closed").
   */
  NetClient outsideNet = outside.createNetClient();
  NetClient userNet = user.createNetClient();
  List<Client> clients = new java.util.concurrent.CopyOnWriteArrayList<>();
  int port;

  @AfterEach
  void close() {
    // Closed one by one first: closing a Vert.x waits up to 30 s for the connections its clients still hold.
    Future.all(clients.stream().map(client -> client.socket.close()).toList()).await();
    outside.close().await();
    user.close().await();
  }

  /** A chat verticle whose bridge knows the tokens "token-ada" and "token-bob", over a storage that answers them. */
  private void deploy(Vertx vertx, JsonObject bridge) throws Exception {
    new Bus(vertx).serve(StorageOps.TOKEN_FIND, hash -> List.of("ada", "bob", "reader").stream()
        .filter(name -> Sha256.hex("token-" + name).equals(hash.tokenHash())).findFirst()
        .map(name -> Future.succeededFuture(new StorageOps.TokenUser(new User(name, name + "@example.com",
            "2026-01-01T00:00:00.000Z"), name.equals("reader") ? TokenScope.READ : TokenScope.CHAT, "token-id-" + name)))
        .orElse(Future.failedFuture(new QuarryException(Failure.NOT_FOUND, "No such token")))).completion().await();
    port = JarCommand.freePort();
    JsonObject config = new JsonObject().put("port", 0).put("bridgePort", port);
    bridge.forEach(setting -> config.put(setting.getKey(), setting.getValue()));
    vertx.deployVerticle(new ChatVerticle(), new DeploymentOptions().setConfig(config)).await();
  }

  @Test
  @DisplayName("a flood of connections that never sign in, reopened as fast as the bridge closes them, keeps no client"
      + " with a token out: all of at least 25 sign in from the flood's own address while the flood's oldest give way")
  void unsignedFlood(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject());
    Flood flood = new Flood(outside.createNetClient(), port, 1_200, 30_000);
    flood.start();
    flood.full.future().timeout(WAIT_S, TimeUnit.SECONDS).await();
    int givenUpBefore = flood.givenUp.get();
    int tries = 0;
    int signedIn = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
    while ((tries < 25 || flood.givenUp.get() - givenUpBefore < 1_200) && System.nanoTime() < deadline) {
      Client ada = Client.connect(userNet, port);
      clients.add(ada);
      tries++;
      if ("message".equals(ada.request("quarry.bridge.login", new JsonObject().put("token", "token-ada"))
          .getString("type"))) {
        signedIn++;
      }
      ada.socket.close().await();
    }
    int givenUpDuring = flood.givenUp.get() - givenUpBefore;
    flood.stop();
    assertThat(signedIn).isEqualTo(tries).isGreaterThanOrEqualTo(25);
    assertThat(givenUpDuring).as("the flood was taking places while Ada signed in").isGreaterThanOrEqualTo(1_200);
    assertThat(flood.lastRefusal).isEqualTo("Not signed in, and the bridge needed this connection's place for a newer"
        + " one");
  }

  @Test
  @DisplayName("a token of scope read may ping and read, and is refused SQL and questions, FORBIDDEN saying why")
  void scopes(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject());
    Client reader = signedIn("reader");
    assertThat(reader.request("api.ping", new JsonObject()).getJsonObject("body").getJsonArray("roles")).isNotNull();
    JsonObject sql = reader.request("api.query.run", new JsonObject().put("conversation_id", "c").put("sql", "SELECT 1"));
    assertThat(sql.getInteger("failureCode")).isEqualTo(403);
    assertThat(sql.getString("message")).isEqualTo("This token's scope is read, and this needs query");
    JsonObject ask = reader.request("api.turn.start", new JsonObject().put("conversation_id", "c").put("content", "Hi"));
    assertThat(ask.getString("message")).isEqualTo("This token's scope is read, and this needs chat");
  }

  @Test
  @DisplayName("a user's unfinished frames hold at most bridgeMaxFrameMemoryPerUser: the connection that would pass"
      + " it is cut off saying so, the other finishes its frame and is answered")
  void framesPerUser(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("bridgeMaxFrameMemoryPerUser", 3 * MIB / 2));
    List<Client> two = List.of(signedIn("ada"), signedIn("ada"));
    two.forEach(client -> client.startFrame(MIB, 1_000_000));
    Client cut = firstCut(two);
    assertThat(cut.refusal()).isEqualTo("This user's connections hold 1572864 bytes of unfinished frames: finish one"
        + " before starting more");
    Client other = two.get(0) == cut ? two.get(1) : two.get(0);
    assertThat(other.finishFrame(MIB, 1_000_000).getString("type")).isEqualTo("err");
    Client third = signedIn("ada");
    third.startFrame(MIB, 1_000_000);
    assertThat(third.finishFrame(MIB, 1_000_000).getString("message"))
        .as("what the cut connection held was released").startsWith("unknown_type");
  }

  @Test
  @DisplayName("the node's unfinished frames hold at most bridgeMaxFrameMemory, whoever sends them")
  void framesPerNode(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("bridgeMaxFrameMemory", 3 * MIB / 2));
    List<Client> two = List.of(signedIn("ada"), signedIn("bob"));
    two.forEach(client -> client.startFrame(MIB, 1_000_000));
    assertThat(firstCut(two).refusal()).isEqualTo("The bridge holds 1572864 bytes of unfinished frames: try again"
        + " shortly");
  }

  @Test
  @DisplayName("a frame left unfinished for bridgeFrameTimeoutMs ends its connection, and one finished in time does not")
  void stalledFrame(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("bridgeFrameTimeoutMs", 500));
    Client slow = signedIn("ada");
    slow.startFrame(1_000, 10);
    assertThat(slow.next().getString("message")).isEqualTo("No frame finished within 500 ms");
    slow.closed.future().timeout(WAIT_S, TimeUnit.SECONDS).await();
  }

  @Test
  @DisplayName("signed-in connections are bounded per user (bridgeMaxConnectionsPerUser) and per node"
      + " (bridgeMaxConnections): past either, the sign-in fails saying which, and the connection ends")
  void signedInCaps(Vertx vertx) throws Exception {
    deploy(vertx, new JsonObject().put("bridgeMaxConnectionsPerUser", 2).put("bridgeMaxConnections", 3));
    signedIn("ada");
    Client second = signedIn("ada");
    JsonObject third = connect().request("quarry.bridge.login",
        new JsonObject().put("token", "token-ada"));
    assertThat(third.getInteger("code")).isEqualTo(429);
    assertThat(third.getString("message")).isEqualTo("This user has 2 connections to the bridge: close one first");
    signedIn("bob");
    JsonObject fourth = connect().request("quarry.bridge.login",
        new JsonObject().put("token", "token-bob"));
    assertThat(fourth.getString("message")).isEqualTo("The bridge has 3 signed-in connections: try again shortly");
    second.socket.close().await();
    second.closed.future().timeout(WAIT_S, TimeUnit.SECONDS).await();
    assertThat(connect().request("quarry.bridge.login", new JsonObject().put("token", "token-bob"))
        .getString("type")).as("a closed connection's place is free again").isEqualTo("message");
  }

  private Client connect() {
    Client client = Client.connect(outsideNet, port);
    clients.add(client);
    return client;
  }

  private Client signedIn(String name) throws Exception {
    Client client = connect();
    JsonObject answer = client.request("quarry.bridge.login", new JsonObject().put("token", "token-" + name));
    assertThat(answer.getString("type")).as(answer.encode()).isEqualTo("message");
    return client;
  }

  /** The first of {@code clients} the bridge closes; the others stay open. */
  private static Client firstCut(List<Client> clients) {
    Promise<Client> first = Promise.promise();
    clients.forEach(client -> client.closed.future().onSuccess(v -> first.tryComplete(client)));
    return first.future().timeout(WAIT_S, TimeUnit.SECONDS).await();
  }

  /** A client of the bridge's protocol: frames it reads wait in a queue. */
  static final class Client {
    final NetSocket socket;
    final Promise<Void> closed = Promise.promise();
    final LinkedBlockingQueue<JsonObject> frames = new LinkedBlockingQueue<>();
    private Buffer pending = Buffer.buffer();
    private int replies;

    private Client(NetSocket socket) {
      this.socket = socket;
      socket.handler(this::read);
      socket.closeHandler(v -> closed.tryComplete());
    }

    static Client connect(NetClient net, int port) {
      return new Client(net.connect(port, "127.0.0.1").await());
    }

    private void read(Buffer bytes) {
      pending.appendBuffer(bytes);
      while (pending.length() >= 4 && pending.length() >= 4 + pending.getInt(0)) {
        frames.add(new JsonObject(pending.getBuffer(4, 4 + pending.getInt(0))));
        pending = pending.getBuffer(4 + pending.getInt(0), pending.length());
      }
    }

    JsonObject request(String address, JsonObject body) throws InterruptedException {
      JsonObject frame = new JsonObject().put("type", "send").put("address", address)
          .put("replyAddress", "r" + ++replies).put("body", body);
      Buffer json = frame.toBuffer();
      socket.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json));
      return next();
    }

    JsonObject next() throws InterruptedException {
      JsonObject frame = frames.poll(WAIT_S, TimeUnit.SECONDS);
      assertThat(frame).as("a frame from the bridge, within %d s, on a connection %s", WAIT_S,
          closed.future().isComplete() ? "the bridge closed" : "still open").isNotNull();
      return frame;
    }

    /** The length of a frame of {@code length} bytes, and {@code sent} of them: a JSON object's start, then spaces. */
    void startFrame(int length, int sent) {
      socket.write(Buffer.buffer().appendInt(length).appendString("{").appendString(" ".repeat(sent - 1)));
    }

    /** The rest of the frame: spaces, then the object's end; the bridge's answer to it. */
    JsonObject finishFrame(int length, int sent) throws InterruptedException {
      socket.write(Buffer.buffer().appendString(" ".repeat(length - sent - 1)).appendString("}"));
      return next();
    }

    /** The refusal the bridge sent before closing. */
    String refusal() {
      closed.future().timeout(WAIT_S, TimeUnit.SECONDS).await();
      JsonObject last = null;
      for (JsonObject frame : frames) {
        last = frame;
      }
      return last == null ? null : last.getString("message");
    }
  }

  /**
   * Holds {@code size} connections to the bridge that never sign in, reopening each as soon as the bridge closes it,
   * at most {@code reopenings} times (and not after {@link #stop}).
   */
  static final class Flood {
    final NetClient client;
    final int port;
    final int size;
    final AtomicInteger reopenings;
    final AtomicInteger givenUp = new AtomicInteger();
    /** The bridge has begun to give the flood's connections up. */
    final Promise<Void> full = Promise.promise();
    final java.util.Set<NetSocket> open = java.util.concurrent.ConcurrentHashMap.newKeySet();
    volatile boolean stopped;
    volatile String lastRefusal;

    Flood(NetClient client, int port, int size, int reopenings) {
      this.client = client;
      this.port = port;
      this.size = size;
      this.reopenings = new AtomicInteger(reopenings);
    }

    void start() {
      for (int i = 0; i < size; i++) {
        open();
      }
    }

    /** Reopens no more, and closes what it holds. */
    void stop() {
      stopped = true;
      Future.all(open.stream().map(NetSocket::close).toList()).await();
    }

    private void open() {
      client.connect(port, "127.0.0.1").onComplete(connected -> {
        if (connected.failed()) {
          reopen();
          return;
        }
        NetSocket socket = connected.result();
        open.add(socket);
        socket.handler(bytes -> {
          givenUp.incrementAndGet();
          full.tryComplete();
          lastRefusal = new JsonObject(bytes.getBuffer(4, bytes.length())).getString("message");
        });
        socket.closeHandler(v -> {
          open.remove(socket);
          reopen();
        });
      });
    }

    private void reopen() {
      if (!stopped && reopenings.decrementAndGet() >= 0) {
        open();
      }
    }
  }
}
