package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps.ResultRef;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * MCP's resources: a conversation's messages (JSON) and a stored result's rows (CSV), read through the public
 * operations like everything else (any token may read them); what is not the user's is not found, the same as what
 * does not exist.
 */
final class McpResources {

  private static final String MESSAGES = "quarry://conversations/{conversation_id}/messages";
  private static final String ROWS = "quarry://results/{result_id}/rows.csv";
  private static final Pattern MESSAGES_URI = Pattern.compile("quarry://conversations/([^/?#]+)/messages");
  private static final Pattern ROWS_URI = Pattern.compile("quarry://results/([^/?#]+)/rows\\.csv");

  private final Bus bus;

  McpResources(Bus bus) {
    this.bus = bus;
  }

  JsonObject templates() {
    return new JsonObject().put("resourceTemplates", new JsonArray()
        .add(new JsonObject().put("uriTemplate", MESSAGES).put("name", "conversation-messages")
            .put("title", "A conversation's messages").put("mimeType", "application/json")
            .put("description", "Every message of a conversation: questions, answers, their SQL and result ids."))
        .add(new JsonObject().put("uriTemplate", ROWS).put("name", "result-rows").put("title", "A result's rows")
            .put("mimeType", "text/csv")
            .put("description", "A stored result's rows (its first 1,000) as CSV, with a header of column names.")));
  }

  /** The user's conversations, each as its messages. */
  Future<JsonObject> list(McpCall call) {
    return ApiOps.CONVERSATION_LIST.call(bus, new UserRef(call.userId())).map(all -> new JsonObject()
        .put("resources", new JsonArray(all.stream().map(c -> new JsonObject()
            .put("uri", "quarry://conversations/" + c.id() + "/messages").put("name", c.title())
            .put("mimeType", "application/json")).toList())));
  }

  Future<JsonObject> read(McpCall call, String uri) {
    Matcher messages = MESSAGES_URI.matcher(uri);
    Matcher rows = ROWS_URI.matcher(uri);
    Future<JsonObject> content;
    if (messages.matches()) {
      content = ApiOps.CONVERSATION_GET.call(bus, new ConversationRef(call.userId(), messages.group(1)))
          .map(read -> contents(uri, "application/json", new JsonObject().put("messages",
              new JsonArray(read.messages().stream().map(McpShapes::message).toList())).encodePrettily()));
    } else if (rows.matches()) {
      content = ApiOps.RESULT_GET.call(bus, new ResultRef(call.userId(), rows.group(1)))
          .map(result -> contents(uri, "text/csv", McpShapes.csv(result)));
    } else {
      return Future.failedFuture(notFound(uri));
    }
    return content.recover(e -> Failure.classify(e) == Failure.NOT_FOUND ? Future.failedFuture(notFound(uri))
        : Future.failedFuture(new JsonRpc.Failure(JsonRpc.INTERNAL_ERROR, HttpErrors.said(e, "MCP resources/read")
            .message())));
  }

  private static JsonObject contents(String uri, String type, String text) {
    return new JsonObject().put("contents", new JsonArray().add(new JsonObject().put("uri", uri)
        .put("mimeType", type).put("text", text)));
  }

  private static JsonRpc.Failure notFound(String uri) {
    return new JsonRpc.Failure(JsonRpc.RESOURCE_NOT_FOUND, "Resource not found: " + uri);
  }
}
