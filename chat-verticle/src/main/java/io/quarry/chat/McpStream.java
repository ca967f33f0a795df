package io.quarry.chat;

import io.quarry.bus.UrlSecrets;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;

/**
 * An MCP answer as a server-sent event stream: its notifications, then the response, then the end. A client gone
 * mid-answer stops the writing, not the work (a question's answer is still saved in its conversation).
 */
final class McpStream {

  private final Vertx vertx;
  private final HttpServerResponse response;
  private final long heartbeatMs;
  private long heartbeat = -1;

  McpStream(Vertx vertx, HttpServerResponse response, long heartbeatMs) {
    this.vertx = vertx;
    this.response = response;
    this.heartbeatMs = heartbeatMs;
  }

  void open() {
    response.setChunked(true).putHeader("Content-Type", "text/event-stream").putHeader("Cache-Control", "no-cache");
    response.writeHead();
    heartbeat = vertx.setPeriodic(heartbeatMs, t -> write(": still working\n\n"));
  }

  void send(JsonObject message) {
    write("event: message\ndata: " + UrlSecrets.shownIn(message.encode()) + "\n\n");
  }

  void end(JsonObject message) {
    vertx.cancelTimer(heartbeat);
    if (!response.closed() && !response.ended()) {
      response.end("event: message\ndata: " + UrlSecrets.shownIn(message.encode()) + "\n\n");
    }
  }

  private void write(String text) {
    if (response.closed() || response.ended()) {
      vertx.cancelTimer(heartbeat);
      return;
    }
    response.write(text);
  }
}
