package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.ConversationRead;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.ResultRun;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps.Found;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;

/** {@code /api/conversations}: create, list, read (with messages, datasets and the user's own runs), rename, delete. */
final class ConversationApi {

  static final int MAX_TITLE = ApiOps.MAX_TITLE;
  static final String DEFAULT_TITLE = ApiOps.DEFAULT_TITLE;
  /** Longest search a user may type. */
  static final int MAX_QUERY = 200;

  private final StorageClient storage;
  private final Uploads uploads;

  ConversationApi(StorageClient storage, Uploads uploads) {
    this.storage = storage;
    this.uploads = uploads;
  }

  void mount(Router router) {
    router.post("/api/conversations").handler(this::create);
    router.get("/api/conversations").handler(this::list);
    router.get("/api/conversations/:id").handler(this::get);
    router.patch("/api/conversations/:id").handler(this::rename);
    router.delete("/api/conversations/:id").handler(this::delete);
    Routes.allowOnly(router, "/api/conversations", HttpMethod.GET, HttpMethod.POST);
    Routes.allowOnly(router, "/api/conversations/:id", HttpMethod.GET, HttpMethod.PATCH, HttpMethod.DELETE);
  }

  private void create(RoutingContext ctx) {
    String title = Bodies.optionalString(Bodies.object(ctx), "title", MAX_TITLE);
    String chosen = title == null || title.isBlank() ? DEFAULT_TITLE : title.strip();
    Replies.send(ctx, 201, storage.createConversation(userId(ctx), chosen).map(Conversation::toJson));
  }

  private void list(RoutingContext ctx) {
    String query = ctx.queryParams().get("q");
    if (query != null && !query.isBlank()) {
      search(ctx, query);
      return;
    }
    Replies.send(ctx, 200, storage.conversations(userId(ctx))
        .map(all -> new JsonObject().put("conversations", array(all.stream().map(Conversation::toJson).toList()))));
  }

  /** {@code ?q=}: the user's conversations whose title or messages hold it, each with a few words of its match. */
  private void search(RoutingContext ctx, String query) {
    if (query.length() > MAX_QUERY) {
      HttpErrors.send(ctx, 400, "Parameter 'q' must be at most " + MAX_QUERY + " characters", null);
      return;
    }
    // SQLite's LIKE ends its pattern at a NUL, so "%00x" would match everything; nobody types a control character.
    if (query.chars().anyMatch(Character::isISOControl)) {
      HttpErrors.send(ctx, 400, "Parameter 'q' must not contain control characters", null);
      return;
    }
    Replies.send(ctx, 200, storage.searchConversations(userId(ctx), query)
        .map(found -> new JsonObject().put("conversations", array(found.stream().map(Found::toJson).toList()))));
  }

  private void get(RoutingContext ctx) {
    Replies.send(ctx, 200, read(storage, userId(ctx), ctx.pathParam("id")).map(ConversationRead::toJson));
  }

  /** A conversation with its messages, its datasets, and the results its user ran themselves (shown where made). */
  static Future<ConversationRead> read(StorageClient storage, String userId, String id) {
    Future<Conversation> conversation = storage.conversation(userId, id);
    Future<List<ChatMessage>> messages = conversation.compose(c -> storage.messages(userId, id));
    Future<List<Dataset>> datasets = conversation.compose(c -> storage.datasets(userId, id));
    Future<List<ResultRun>> runs = conversation.compose(c -> storage.runs(userId, id));
    return Future.all(messages, datasets, runs).map(all -> new ConversationRead(conversation.result(),
        messages.result(), datasets.result(), runs.result()));
  }

  private void rename(RoutingContext ctx) {
    String title = Bodies.requiredString(Bodies.object(ctx), "title", MAX_TITLE).strip();
    Replies.send(ctx, 200, storage.renameConversation(userId(ctx), ctx.pathParam("id"), title)
        .map(Conversation::toJson));
  }

  private void delete(RoutingContext ctx) {
    storage.deleteConversation(userId(ctx), ctx.pathParam("id"))
        .compose(v -> uploads.conversationDeleted(userId(ctx), ctx.pathParam("id")))
        .onSuccess(v -> Replies.noContent(ctx))
        .onFailure(e -> HttpErrors.respond(ctx, e));
  }

  private static String userId(RoutingContext ctx) {
    return Auth.user(ctx).id();
  }

  private static JsonArray array(List<JsonObject> items) {
    return new JsonArray(List.copyOf(items));
  }
}
