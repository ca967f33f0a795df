package io.quarry.app;

import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** An MCP request answered with an event stream, read one JSON-RPC message at a time as a client without an SDK would. */
final class SseReader {

  private final BlockingQueue<JsonObject> messages = new LinkedBlockingQueue<>();
  private final StringBuilder pending = new StringBuilder();

  private SseReader() {
  }

  static SseReader post(HttpClient client, int port, String token, JsonObject message) {
    SseReader reader = new SseReader();
    HttpClientResponse response = client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1")
            .setPort(port).setURI("/mcp").putHeader("Authorization", "Bearer " + token)
            .putHeader("Content-Type", "application/json").putHeader("Accept", "application/json, text/event-stream"))
        .compose(request -> request.send(message.toBuffer())).await();
    if (!response.getHeader("Content-Type").startsWith("text/event-stream")) {
      throw new AssertionError("not an event stream: " + response.statusCode() + " " + response.getHeader("Content-Type"));
    }
    response.handler(chunk -> reader.read(chunk.toString()));
    return reader;
  }

  private synchronized void read(String text) {
    pending.append(text);
    int end;
    while ((end = pending.indexOf("\n\n")) >= 0) {
      String event = pending.substring(0, end);
      pending.delete(0, end + 2);
      for (String line : event.split("\n")) {
        if (line.startsWith("data: ")) {
          messages.add(new JsonObject(line.substring("data: ".length())));
        }
      }
    }
  }

  /** The next message, waited for at most 30 s. */
  JsonObject next() throws InterruptedException {
    JsonObject message = messages.poll(30, TimeUnit.SECONDS);
    if (message == null) {
      throw new AssertionError("no message within 30 s");
    }
    return message;
  }
}
