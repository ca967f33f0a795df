package io.quarry.bus;

import static io.quarry.bus.Addresses.*;

import io.quarry.bus.Failover.Policy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * The storage-verticle's operations. Every one but the session and user look-ups is scoped by user id.
 *
 * <p>Storage may run on several nodes (PostgreSQL), and one may die with requests in flight: every operation but
 * sign-up, a new invite and a dataset's removal is sent again when its node may have died ({@link Failover}). So
 * each is made safe to deliver twice: reads are; what creates a row names it here (a conversation's, a dataset's, a
 * message's, a result's id, a token record's request id), so a second delivery finds it made; updates set what
 * they set again.
 */
public final class StorageClient {

  private final EventBus bus;
  private final Failover failover;

  /** Call from the verticle that uses it (see {@link Failover#Failover}). */
  public StorageClient(Vertx vertx) {
    this.bus = vertx.eventBus();
    this.failover = new Failover(vertx);
  }

  // Users, sessions, invites

  /** The single user of {@code auth.mode=local}, created on first use. */
  public Future<User> localUser() {
    return call(STORAGE_USER_LOCAL, new JsonObject()).map(User::fromJson);
  }

  /** Creates a user, consuming an unused invite in the same transaction. */
  public Future<User> createUser(String email, String passwordHash, String invite) {
    return once(STORAGE_USER_CREATE, new JsonObject()
        .put(Keys.EMAIL, email).put(Keys.PASSWORD_HASH, passwordHash).put(Keys.INVITE, invite))
        .map(User::fromJson);
  }

  public Future<User> user(String userId) {
    return call(STORAGE_USER_GET, scope(userId)).map(User::fromJson);
  }

  /** NOT_FOUND when there is no user with this email. */
  public Future<Credentials> credentials(String email) {
    return call(STORAGE_USER_CREDENTIALS, new JsonObject().put(Keys.EMAIL, email)).map(Credentials::fromJson);
  }

  public Future<Void> createSession(String userId, String tokenHash, String expiresAt) {
    return call(STORAGE_SESSION_CREATE, scope(userId).put(Keys.TOKEN_HASH, tokenHash).put(Keys.EXPIRES_AT, expiresAt))
        .mapEmpty();
  }

  /** The user of an unexpired session; NOT_FOUND otherwise. */
  public Future<User> sessionUser(String tokenHash) {
    return call(STORAGE_SESSION_FIND, new JsonObject().put(Keys.TOKEN_HASH, tokenHash)).map(User::fromJson);
  }

  public Future<Void> deleteSession(String tokenHash) {
    return call(STORAGE_SESSION_DELETE, new JsonObject().put(Keys.TOKEN_HASH, tokenHash)).mapEmpty();
  }

  /**
   * Said of an invite that is unknown or used, and of one used to sign up an email that already has an
   * account (which uses it up): so an invite can neither tell which emails have accounts nor probe many.
   */
  public static final String INVITE_REFUSED = "Invalid or already used invite";

  /** Whether an invite could sign somebody up now (it is known and unused). */
  public Future<Boolean> inviteUsable(String code) {
    return call(STORAGE_INVITE_CHECK, new JsonObject().put(Keys.CODE, code)).map(json -> json.getBoolean(Keys.USABLE));
  }

  /** A new, unused invite code. */
  public Future<String> createInvite() {
    return once(STORAGE_INVITE_CREATE, new JsonObject()).map(json -> json.getString(Keys.CODE));
  }

  // Conversations

  public Future<Conversation> createConversation(String userId, String title) {
    return call(STORAGE_CONVERSATION_CREATE, scope(userId).put(Keys.TITLE, title).put(Keys.ID, newId()))
        .map(Conversation::fromJson);
  }

  /** Newest first. */
  public Future<List<Conversation>> conversations(String userId) {
    return list(STORAGE_CONVERSATION_LIST, scope(userId), Conversation::fromJson);
  }

  /** At most {@link #SEARCH_LIMIT}, newest first, each with {@code match}: the first message text that holds it, or null. */
  public Future<List<JsonObject>> searchConversations(String userId, String query) {
    return call(STORAGE_CONVERSATION_SEARCH, scope(userId).put(Keys.QUERY, query))
        .map(reply -> reply.getJsonArray(Keys.ITEMS, new JsonArray()).stream().map(JsonObject.class::cast).toList());
  }

  /** Conversations a search answers at most. */
  public static final int SEARCH_LIMIT = 50;

  public Future<Conversation> conversation(String userId, String conversationId) {
    return call(STORAGE_CONVERSATION_GET, conversationScope(userId, conversationId)).map(Conversation::fromJson);
  }

  public Future<Conversation> renameConversation(String userId, String conversationId, String title) {
    return call(STORAGE_CONVERSATION_RENAME, conversationScope(userId, conversationId).put(Keys.TITLE, title))
        .map(Conversation::fromJson);
  }

  /** Deletes the conversation with its messages, datasets and results. */
  public Future<Void> deleteConversation(String userId, String conversationId) {
    return failover.request(STORAGE_CONVERSATION_DELETE, conversationScope(userId, conversationId), Deliveries.storage(),
        Policy.REMOVAL).mapEmpty();
  }

  // Messages

  public Future<ChatMessage> appendMessage(String userId, ChatMessage message) {
    JsonObject named = message.toJson();
    if (named.getString("id") == null) {
      named.put("id", newId());
    }
    return call(STORAGE_MESSAGE_APPEND, scope(userId).put("message", named)).map(ChatMessage::fromJson);
  }

  /**
   * Ends an answer that its llm node left unfinished: still streaming (or never saved), it is kept as it stands,
   * marked interrupted with {@code notice}. Answers the message as stored, which may have ended already.
   */
  public Future<ChatMessage> interruptMessage(String userId, String conversationId, String messageId, String notice) {
    return call(STORAGE_MESSAGE_INTERRUPT, conversationScope(userId, conversationId).put(Keys.MESSAGE_ID, messageId)
        .put(Keys.NOTICE, notice)).map(ChatMessage::fromJson);
  }

  /** Oldest first. */
  public Future<List<ChatMessage>> messages(String userId, String conversationId) {
    return list(STORAGE_MESSAGE_LIST, conversationScope(userId, conversationId), ChatMessage::fromJson);
  }

  // Datasets

  /**
   * Atomically reserves a slot and a name ({@code tableN}) for a URL in a conversation, as a dataset in
   * {@code loading} state. CONFLICT "This dataset is already loaded" or "Maximum N datasets reached".
   */
  public Future<Dataset> claimDataset(String userId, String conversationId, String url, int maxDatasets) {
    return call(STORAGE_DATASET_CLAIM, conversationScope(userId, conversationId)
        .put(Keys.URL, url).put(Keys.MAX_DATASETS, maxDatasets).put(Keys.DATASET_ID, newId())).map(Dataset::fromJson);
  }

  /** In the order they were added. */
  public Future<List<Dataset>> datasets(String userId, String conversationId) {
    return list(STORAGE_DATASET_LIST, conversationScope(userId, conversationId), Dataset::fromJson);
  }

  /**
   * The datasets a query will read. CONFLICT when the account already stores as many query results as it
   * may keep: its queries stop until old conversations are deleted.
   */
  public Future<List<Dataset>> datasetsForQuery(String userId, String conversationId) {
    return list(STORAGE_DATASET_LIST, conversationScope(userId, conversationId).put(Keys.FOR_QUERY, true),
        Dataset::fromJson);
  }

  public Future<Dataset> dataset(String userId, String conversationId, String datasetId) {
    return call(STORAGE_DATASET_GET, datasetScope(userId, conversationId, datasetId)).map(Dataset::fromJson);
  }

  /** Stores status, schema, counts, size, etag and error of a dataset. */
  public Future<Dataset> updateDataset(String userId, Dataset dataset) {
    return call(STORAGE_DATASET_UPDATE, scope(userId).put("dataset", dataset.toJson())).map(Dataset::fromJson);
  }

  /** CONFLICT when another dataset of the conversation has that name. */
  public Future<Dataset> renameDataset(String userId, String conversationId, String datasetId, String name) {
    return call(STORAGE_DATASET_RENAME, datasetScope(userId, conversationId, datasetId).put(Keys.NAME, name))
        .map(Dataset::fromJson);
  }

  public Future<Dataset> deleteDataset(String userId, String conversationId, String datasetId) {
    return once(STORAGE_DATASET_DELETE, datasetScope(userId, conversationId, datasetId)).map(Dataset::fromJson);
  }

  // Query results

  /**
   * Stores a result (at most {@link QueryResult#MAX_ROWS} rows) and returns it with its id: the one it
   * carries, or a new one. A read of that id waits until this save has ended, so a caller may hand the id
   * out before then. Storage answers with the id alone: echoing a thousand rows back would only cost a copy.
   */
  public Future<QueryResult> saveResult(String userId, QueryResult result) {
    QueryResult capped = result.id() == null ? result.capped().stored(newId(), Timestamps.now()) : result.capped();
    return call(STORAGE_RESULT_SAVE, scope(userId).put("result", capped.toJson()))
        .map(saved -> capped.stored(saved.getString("id"), saved.getString("created_at")));
  }

  public Future<QueryResult> result(String userId, String resultId) {
    return call(STORAGE_RESULT_GET, scope(userId).put(Keys.RESULT_ID, resultId)).map(QueryResult::fromJson);
  }

  /**
   * Marks a result the user ran themselves (see {@link ResultRun}), once its save has ended; the run comes back with
   * the time it was marked. NOT_FOUND when the result is not the user's.
   */
  public Future<ResultRun> saveRun(String userId, ResultRun run) {
    return call(STORAGE_RUN_SAVE, scope(userId).put("run", run.toJson())).map(ResultRun::fromJson);
  }

  /** The results the user ran themselves in a conversation, oldest first. */
  public Future<List<ResultRun>> runs(String userId, String conversationId) {
    return list(STORAGE_RUN_LIST, conversationScope(userId, conversationId), ResultRun::fromJson);
  }

  // Token usage

  public Future<Void> recordUsage(TokenUsage usage) {
    return call(STORAGE_USAGE_RECORD, usage.toJson().put(Keys.REQUEST_ID, newId())).mapEmpty();
  }

  /** Tokens the user consumed since an ISO-8601 instant. */
  public Future<UsageWindow> usageSince(String userId, String sinceIso) {
    return call(STORAGE_USAGE_WINDOW, scope(userId).put(Keys.SINCE, sinceIso)).map(UsageWindow::fromJson);
  }

  /** Whether the database answers, within {@code timeoutMs}; sent once: readiness says what is, now. */
  public Future<Void> ping(long timeoutMs) {
    return Bus.request(bus, STORAGE_PING, new JsonObject(), Deliveries.within(timeoutMs)).mapEmpty();
  }

  private Future<JsonObject> call(String address, JsonObject body) {
    return failover.request(address, body, Deliveries.storage(), Policy.IDEMPOTENT);
  }

  /** What a second delivery would do twice, or answer differently: sent once. */
  private Future<JsonObject> once(String address, JsonObject body) {
    return Bus.request(bus, address, body, Deliveries.storage());
  }

  private <T> Future<List<T>> list(String address, JsonObject body, Function<JsonObject, T> decode) {
    return call(address, body).map(reply -> reply.getJsonArray(Keys.ITEMS, new JsonArray()))
        .map(items -> items.stream().map(item -> decode.apply((JsonObject) item)).toList());
  }

  private static String newId() {
    return UUID.randomUUID().toString();
  }

  private static JsonObject scope(String userId) {
    return new JsonObject().put(Keys.USER_ID, userId);
  }

  private static JsonObject conversationScope(String userId, String conversationId) {
    return scope(userId).put(Keys.CONVERSATION_ID, conversationId);
  }

  private static JsonObject datasetScope(String userId, String conversationId, String datasetId) {
    return conversationScope(userId, conversationId).put(Keys.DATASET_ID, datasetId);
  }
}
