package io.quarry.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Browsers of one user spread over several web nodes, as a load balancer spreads them: REST to a web node that
 * is up (another when one stops answering), a WebSocket on every web node that is up (its events are the
 * user's, whichever node sends them), and what a browser does when its socket drops: reconnect elsewhere and
 * read the conversation again.
 */
public final class LoadClient {

  /** How a question ended for the user. */
  public enum Outcome { ANSWERED, FAILED_CLEARLY, LOST }

  /** One question's story: its outcome, what the user was told, and the ids to find it by in storage. */
  public record Asked(String conversation, Outcome outcome, String said, String messageId, String userMessageId) {
  }

  public static final Set<String> FINAL = Set.of("complete", "error", "interrupted", "cancelled", "declined");
  static final long EVENT_WAIT_S = 15;
  /** More than the connections a web client keeps to a node (5), each of which may fail as its node dies. */
  private static final int TRIES_PER_NODE = 8;

  private final Vertx vertx;
  private final List<Integer> ports;
  private final Map<Integer, WebClient> clients = new ConcurrentHashMap<>();
  /** Held: Vert.x closes a client once nothing refers to it, even while it connects. */
  private final WebSocketClient sockets;
  private final Set<Integer> down = ConcurrentHashMap.newKeySet();
  private final Map<String, CompletableFuture<JsonObject>> ends = new ConcurrentHashMap<>();
  public final List<JsonObject> errors = new CopyOnWriteArrayList<>();
  public final List<Integer> reconnects = new CopyOnWriteArrayList<>();
  private volatile boolean closing;

  public LoadClient(Vertx vertx, List<Integer> ports) {
    this.vertx = vertx;
    this.ports = ports;
    this.sockets = vertx.createWebSocketClient();
    ports.forEach(this::connect);
  }

  private WebClient client(int port) {
    return clients.computeIfAbsent(port, p -> WebClient.create(vertx, new WebClientOptions()
        .setDefaultHost("127.0.0.1").setDefaultPort(p).setConnectTimeout(5_000).setIdleTimeout(30)
        // Sooner than a web node closes a connection idle for chat.headerTimeoutMs (10 s): never reuse one it closes.
        .setKeepAliveTimeout(5)));
  }

  /** A socket on the web node at {@code port}, answering its pings; when it drops, the browser connects again. */
  private void connect(int port) {
    WebSocket ws = sockets.connect(new WebSocketConnectOptions().setHost("127.0.0.1")
        .setPort(port).setURI("/ws").addHeader("Origin", "http://127.0.0.1:" + port)).await();
    ws.textMessageHandler(text -> heard(ws, new JsonObject(text)));
    ws.closeHandler(v -> {
      if (!closing) {
        Thread reconnect = new Thread(() -> reconnect(port), "browser-reconnect");
        reconnect.setDaemon(true);
        reconnect.start();
      }
    });
  }

  /** As a browser does: to the same web node while it takes connections, else to the next one that does. */
  private void reconnect(int port) {
    List<Integer> order = new ArrayList<>(ports);
    Collections.rotate(order, -ports.indexOf(port));
    for (int candidate : order) {
      if (down.contains(candidate)) {
        continue;
      }
      try {
        connect(candidate);
        if (candidate != port) {
          reconnects.add(candidate);
        }
        return;
      } catch (Exception e) {
        if (e instanceof ConnectException) {
          down.add(candidate);
        }
      }
    }
  }

  private void heard(WebSocket ws, JsonObject event) {
    String type = event.getString("type");
    if ("ping".equals(type)) {
      ws.writeTextMessage(new JsonObject().put("type", "pong").encode());
    } else if ("chat_complete".equals(type) || "chat_error".equals(type)) {
      if ("chat_error".equals(type)) {
        errors.add(event);
      }
      ends.computeIfAbsent(event.getString("message_id"), id -> new CompletableFuture<>()).complete(event);
    }
  }

  /**
   * A request to a web node that is up, as a load balancer sends it: a node that refuses connections is marked down
   * and the next one asked; a connection that closes under the request is tried again on the same node, up to
   * {@link #TRIES_PER_NODE} times. Counted per node, not per request: a node killed under load first fails the requests
   * on the connections the client kept to it, one after another, and only then refuses; a request that had spent its
   * tries on those was lost with another node up.
   */
  public HttpResponse<Buffer> send(String method, String path, JsonObject body) {
    RuntimeException last = new IllegalStateException("every web node refused connections: " + ports);
    for (int port : ports) {
      for (int attempt = 0; attempt < TRIES_PER_NODE && !down.contains(port); attempt++) {
        try {
          var request = client(port).request(HttpMethod.valueOf(method), path).timeout(30_000);
          return (body == null ? request.send() : request.sendJsonObject(body)).await();
        } catch (Exception e) {
          // await() rethrows the connection's own failure (a SocketException on a reset) as it is.
          last = e instanceof RuntimeException re ? re : new IllegalStateException(e);
          if (e instanceof ConnectException) {
            down.add(port);
          } else if (!(e instanceof SocketException || e instanceof HttpClosedException)) {
            throw last;
          }
        }
      }
    }
    throw last;
  }

  public String conversation(String datasetUrl) {
    String id = send("POST", "/api/conversations", new JsonObject()).bodyAsJsonObject().getString("id");
    HttpResponse<Buffer> added = send("POST", "/api/conversations/" + id + "/datasets",
        new JsonObject().put("url", datasetUrl));
    if (added.statusCode() != 201) {
      throw new AssertionError("dataset not added: " + added.bodyAsString());
    }
    return id;
  }

  /**
   * Asks and follows the answer to its end: its chat_complete or chat_error, or, when no event comes (the socket
   * that would have carried it dropped), the stored message read again.
   */
  public Asked ask(String conversation, String question) {
    HttpResponse<Buffer> response;
    try {
      response = send("POST", "/api/conversations/" + conversation + "/messages", new JsonObject().put("content",
          question));
    } catch (RuntimeException e) {
      return new Asked(conversation, Outcome.LOST, "no web node answered: " + e, null, null);
    }
    if (response.statusCode() != 202) {
      String error = response.bodyAsJsonObject().getString("error");
      return new Asked(conversation, error == null || error.isBlank() ? Outcome.LOST : Outcome.FAILED_CLEARLY,
          response.statusCode() + " " + error, null, null);
    }
    String messageId = response.bodyAsJsonObject().getString("message_id");
    String userMessageId = response.bodyAsJsonObject().getString("user_message_id");
    JsonObject end = awaitEnd(conversation, messageId);
    if (end == null) {
      return new Asked(conversation, Outcome.LOST, "the answer never ended", messageId, userMessageId);
    }
    boolean answered = "chat_complete".equals(end.getString("type")) || "complete".equals(end.getString("status"));
    String said = end.getString("error", end.getString("notice", ""));
    return new Asked(conversation, answered ? Outcome.ANSWERED : Outcome.FAILED_CLEARLY, said, messageId,
        userMessageId);
  }

  private JsonObject awaitEnd(String conversation, String messageId) {
    CompletableFuture<JsonObject> end = ends.computeIfAbsent(messageId, id -> new CompletableFuture<>());
    for (int round = 0; round < 3; round++) {
      try {
        return end.get(EVENT_WAIT_S, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        JsonObject stored = stored(conversation, messageId);
        if (stored != null && FINAL.contains(stored.getString("status"))) {
          return stored;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      } catch (ExecutionException e) {
        return null;
      }
    }
    return null;
  }

  /** The test is over: sockets that close now are not reopened. */
  public void closing() {
    closing = true;
  }

  /** The message as stored now, or null. */
  public JsonObject stored(String conversation, String messageId) {
    JsonArray messages = send("GET", "/api/conversations/" + conversation, null).bodyAsJsonObject()
        .getJsonArray("messages");
    return messages.stream().map(JsonObject.class::cast).filter(m -> messageId.equals(m.getString("id")))
        .findFirst().orElse(null);
  }
}
