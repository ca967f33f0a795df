package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Addresses;
import io.quarry.bus.Bus;
import io.quarry.bus.Conversation;
import io.quarry.bus.Failure;
import io.quarry.bus.StorageOps;
import io.quarry.testing.JarCommand;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Review 48, item 8: a number or an object where text belongs is refused by name at every door, the browser's API
 * (400), the bus and the bridge (BAD_REQUEST), never turned into a default ("New conversation") or into its digits.
 * Storage is a fake that would make whatever it is asked for, so a request that got past the check would succeed.
 */
@ExtendWith(VertxExtension.class)
class TextFieldsTest {

  static final String ID = "0f8fad5b-d9cb-469f-a165-70867728950e";

  /** {address on the bus, REST method, REST path, the field, the rest of a request that would otherwise pass}. */
  static final List<Door> DOORS = List.of(
      new Door(Addresses.API_CONVERSATION_CREATE, HttpMethod.POST, "/api/conversations", "title", new JsonObject()),
      new Door(Addresses.API_CONVERSATION_RENAME, HttpMethod.PATCH, "/api/conversations/" + ID, "title",
          new JsonObject().put("conversation_id", ID)),
      new Door(Addresses.API_DATASET_ADD, HttpMethod.POST, "/api/conversations/" + ID + "/datasets", "url",
          new JsonObject().put("conversation_id", ID)),
      new Door(Addresses.API_DATASET_RENAME, HttpMethod.PATCH, "/api/conversations/" + ID + "/datasets/d", "name",
          new JsonObject().put("conversation_id", ID).put("dataset_id", "d")),
      new Door(Addresses.API_QUERY_RUN, HttpMethod.POST, "/api/conversations/" + ID + "/query", "sql",
          new JsonObject().put("conversation_id", ID)),
      new Door(Addresses.API_TURN_START, HttpMethod.POST, "/api/conversations/" + ID + "/messages", "content",
          new JsonObject().put("conversation_id", ID)));

  /** What a client may put where text belongs. */
  static final List<Object> NOT_TEXT = List.of(42, new JsonObject().put("a", 1), new JsonArray().add("x"), true);

  record Door(String address, HttpMethod method, String path, String field, JsonObject rest) {
  }

  Vertx vertx;
  WebClient client;
  int bridgePort;

  @BeforeEach
  void deploy(Vertx vertx) {
    this.vertx = vertx;
    Bus bus = new Bus(vertx);
    bus.serve(StorageOps.USER_LOCAL, none -> Future.succeededFuture(ChatEdgeTest.LOCAL)).completion().await();
    bus.serve(StorageOps.USER_GET, ref -> Future.succeededFuture(ChatEdgeTest.LOCAL)).completion().await();
    bus.serve(StorageOps.TOKEN_FIND, hash -> Future.succeededFuture(new StorageOps.TokenUser(ChatEdgeTest.LOCAL,
        io.quarry.bus.TokenScope.CHAT, "token-id"))).completion().await();
    bus.serve(StorageOps.CONVERSATION_CREATE, made -> Future.succeededFuture(new Conversation(made.id(), made.userId(),
        made.title(), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"))).completion().await();
    bridgePort = JarCommand.freePort();
    ChatVerticle chat = new ChatVerticle();
    vertx.deployVerticle(chat, new DeploymentOptions().setConfig(new JsonObject().put("port", 0)
        .put("bridgePort", bridgePort))).await();
    client = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(chat.port()));
  }

  @Test
  @DisplayName("REVIEW-48-8: a number, object, array or boolean as title, url, name, sql or content is 400 \"Field 'x'"
      + " must be a string\" on the browser's API")
  void rest() {
    for (Door door : DOORS) {
      for (Object wrong : NOT_TEXT) {
        HttpResponse<Buffer> response = client.request(door.method(), door.path())
            .putHeader("Content-Type", "application/json")
            .sendBuffer(new JsonObject().put(door.field(), wrong).toBuffer()).await();
        assertThat(response.statusCode()).as(door.path() + " " + wrong).isEqualTo(400);
        assertThat(response.bodyAsJsonObject().getString("error")).as(door.path() + " " + wrong)
            .isEqualTo("Field '" + door.field() + "' must be a string");
      }
    }
  }

  @Test
  @DisplayName("REVIEW-48-8: the same on the bus's public operations is BAD_REQUEST naming the field; a create whose"
      + " title is a number no longer makes \"New conversation\"")
  void bus() {
    for (Door door : DOORS) {
      for (Object wrong : NOT_TEXT) {
        JsonObject body = door.rest().copy().put("user_id", ChatEdgeTest.LOCAL.id()).put(door.field(), wrong);
        Throwable refused = failure(vertx.eventBus().request(door.address(), body));
        assertThat(Failure.classify(refused)).as(door.address() + " " + wrong).isEqualTo(Failure.BAD_REQUEST);
        assertThat(Failure.messageOf(refused)).as(door.address() + " " + wrong)
            .isEqualTo("Field '" + door.field() + "' must be a string");
      }
    }
    JsonObject created = vertx.eventBus().<JsonObject>request(Addresses.API_CONVERSATION_CREATE, new JsonObject()
        .put("user_id", ChatEdgeTest.LOCAL.id())).await().body();
    assertThat(created.getString("title")).as("no title at all is the default still").isEqualTo("New conversation");
  }

  @Test
  @DisplayName("REVIEW-48-8: the same through the bridge is a failure frame with code 400 naming the field")
  void bridge() throws InterruptedException {
    // Held to the end: Vert.x closes a client nothing references when it is collected, and its socket with it.
    NetClient client = vertx.createNetClient();
    Frames bridge = new Frames(client.connect(bridgePort, "127.0.0.1").await());
    assertThat(bridge.send("quarry.bridge.login", new JsonObject().put("token", "any")).getString("type"))
        .isEqualTo("message");
    for (Door door : DOORS) {
      for (Object wrong : NOT_TEXT) {
        JsonObject answer = bridge.send(door.address(), door.rest().copy().put(door.field(), wrong));
        assertThat(answer.getString("type")).as(door.address() + " " + wrong).isEqualTo("err");
        assertThat(answer.getInteger("code")).as(door.address() + " " + wrong).isEqualTo(400);
        assertThat(answer.getString("message")).as(door.address() + " " + wrong)
            .isEqualTo("Field '" + door.field() + "' must be a string");
      }
    }
    // An open connection would hold the closing Vert.x up for its shutdown's grace period.
    bridge.close();
    client.close().await();
  }

  private static Throwable failure(Future<?> future) {
    try {
      future.await();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected a failure, got " + future.result());
  }

  /** The bridge's protocol, one request at a time: a 4-byte length, then that many bytes of JSON, each way. */
  static final class Frames {

    private final NetSocket socket;
    private final LinkedBlockingQueue<JsonObject> arrived = new LinkedBlockingQueue<>();

    Frames(NetSocket socket) {
      this.socket = socket;
      RecordParser parser = RecordParser.newFixed(4);
      parser.handler(new Handler<>() {
        int length = -1;

        @Override
        public void handle(Buffer bytes) {
          if (length < 0) {
            length = bytes.getInt(0);
            parser.fixedSizeMode(length);
          } else {
            arrived.add(new JsonObject(bytes));
            length = -1;
            parser.fixedSizeMode(4);
          }
        }
      });
      socket.handler(parser);
    }

    JsonObject send(String address, JsonObject body) throws InterruptedException {
      Buffer json = new JsonObject().put("type", "send").put("address", address).put("replyAddress", "r")
          .put("body", body).toBuffer();
      socket.write(Buffer.buffer().appendInt(json.length()).appendBuffer(json));
      JsonObject answer = arrived.poll(10, TimeUnit.SECONDS);
      assertThat(answer).as("an answer from the bridge to " + address).isNotNull();
      return answer;
    }

    void close() {
      socket.close().await();
    }
  }
}
