package io.quarry.testing;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client of Quarry's event-bus bridge for tests and benchmarks, speaking its TCP protocol as any program would: a
 * 4-byte big-endian length, then that many bytes of JSON, each way. Answers go to the request that named their reply
 * address; every other frame (events, refusals) waits in {@link #next}.
 */
public final class BridgeClient {

  /** Held as long as the socket: Vert.x closes a client nothing references when it is collected, its socket with it. */
  private final NetClient client;
  private final NetSocket socket;
  private final Map<String, Promise<JsonObject>> waiting = new ConcurrentHashMap<>();
  private final LinkedBlockingQueue<JsonObject> others = new LinkedBlockingQueue<>();
  private final Promise<Void> closed = Promise.promise();
  private final AtomicLong replies = new AtomicLong();
  private Buffer pending = Buffer.buffer();

  private BridgeClient(NetClient client, NetSocket socket) {
    this.client = client;
    this.socket = socket;
    socket.handler(this::read);
    socket.closeHandler(v -> closed.tryComplete());
  }

  /** Connected to the bridge on loopback. */
  public static BridgeClient connect(Vertx vertx, int port) {
    NetClient client = vertx.createNetClient();
    return new BridgeClient(client, client.connect(port, "127.0.0.1").await());
  }

  private void read(Buffer bytes) {
    pending.appendBuffer(bytes);
    while (pending.length() >= 4 && pending.length() >= 4 + pending.getInt(0)) {
      int length = pending.getInt(0);
      JsonObject frame = new JsonObject(pending.getBuffer(4, 4 + length));
      pending = pending.getBuffer(4 + length, pending.length());
      Promise<JsonObject> request = frame.getValue("address") instanceof String to ? waiting.remove(to) : null;
      if (request != null) {
        request.complete(frame);
      } else {
        others.add(frame);
      }
    }
  }

  /** Writes one frame as it is. */
  public void write(JsonObject frame) {
    Buffer json = frame.toBuffer();
    socket.write(Buffer.buffer(json.length() + 4).appendInt(json.length()).appendBuffer(json));
  }

  /** Writes bytes as they are, whatever they frame. */
  public void writeRaw(Buffer bytes) {
    socket.write(bytes);
  }

  public void close() {
    socket.close().onComplete(closed -> client.close());
  }

  /** Sends {@code body} to {@code address}; completes with the answer's frame, a message or an err. */
  public Future<JsonObject> request(String address, JsonObject body) {
    String replyAddress = "reply-" + replies.incrementAndGet();
    Promise<JsonObject> answer = Promise.promise();
    waiting.put(replyAddress, answer);
    write(new JsonObject().put("type", "send").put("address", address).put("replyAddress", replyAddress)
        .put("body", body));
    return answer.future();
  }

  /** The next frame no request took, or null after {@code seconds}. */
  public JsonObject next(long seconds) throws InterruptedException {
    return others.poll(seconds, TimeUnit.SECONDS);
  }

  /** Completes when the bridge has closed the connection. */
  public Future<Void> closed() {
    return closed.future();
  }
}
