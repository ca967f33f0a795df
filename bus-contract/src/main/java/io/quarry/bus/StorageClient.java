package io.quarry.bus;

import static io.quarry.bus.StorageOps.*;

import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.UUID;

/** The storage-verticle's operations ({@link StorageOps}) as methods, for callers that hold one. */
public final class StorageClient {

  private final Bus bus;

  /** Call from the verticle that uses it (see {@link Bus}). */
  public StorageClient(Vertx vertx) {
    this.bus = new Bus(vertx);
  }

  // Users, sessions, invites

  /** The single user of {@code auth.mode=local}, created on first use. */
  public Future<User> localUser() {
    return USER_LOCAL.call(bus, null);
  }

  /** Creates a user, consuming an unused invite in the same transaction. */
  public Future<User> createUser(String email, String passwordHash, String invite) {
    return USER_CREATE.call(bus, new NewUser(email, passwordHash, invite));
  }

  public Future<User> user(String userId) {
    return USER_GET.call(bus, new UserRef(userId));
  }

  /** NOT_FOUND when there is no user with this email. */
  public Future<Credentials> credentials(String email) {
    return USER_CREDENTIALS.call(bus, new Email(email));
  }

  public Future<Void> createSession(String userId, String tokenHash, String expiresAt) {
    return SESSION_CREATE.call(bus, new NewSession(userId, tokenHash, expiresAt));
  }

  /** The user of an unexpired session; NOT_FOUND otherwise. */
  public Future<User> sessionUser(String tokenHash) {
    return SESSION_FIND.call(bus, new SessionRef(tokenHash));
  }

  /**
   * The user of an API token that is neither revoked nor expired, its scope and id, by the token's hash; NOT_FOUND for
   * an unknown or revoked one, UNAUTHORIZED saying when an expired one expired.
   */
  public Future<StorageOps.TokenUser> tokenUser(String tokenHash) {
    return TOKEN_FIND.call(bus, new StorageOps.TokenHash(tokenHash));
  }

  /** A new API token, answered once. */
  public Future<StorageOps.ApiToken> createToken(StorageOps.NewToken token) {
    return TOKEN_CREATE.call(bus, token);
  }

  /** The user's tokens, oldest first, revoked and expired ones too. */
  public Future<java.util.List<StorageOps.TokenInfo>> tokens(String userId) {
    return TOKEN_LIST.call(bus, StorageOps.NewToken.whose(userId));
  }

  /** Revokes one of the user's tokens; NOT_FOUND when they have none of that id. */
  public Future<Void> revokeToken(String id, String userId) {
    return TOKEN_REVOKE.call(bus, new StorageOps.TokenId(id, userId));
  }

  /** A new share link (its token made by the caller, only its hash sent). */
  public Future<Shares.Share> createShare(Shares.NewShare share) {
    return SHARE_CREATE.call(bus, share);
  }

  /** The user's share links, newest first. */
  public Future<List<Shares.Share>> shares(String userId) {
    return SHARE_LIST.call(bus, new UserRef(userId));
  }

  /** Revokes one of the user's share links; NOT_FOUND when they have none of that id. */
  public Future<Shares.Share> revokeShare(String userId, String id) {
    return SHARE_REVOKE.call(bus, new Shares.ShareRef(userId, id));
  }

  /** The live share of a token's hash, and whose it is; NOT_FOUND otherwise. */
  public Future<Shares.Opened> openShare(String tokenHash) {
    return SHARE_OPEN.call(bus, new Shares.TokenHash(tokenHash));
  }

  public Future<Void> deleteSession(String tokenHash) {
    return SESSION_DELETE.call(bus, new SessionRef(tokenHash));
  }

  /**
   * Said of an invite that is unknown or used, and of one used to sign up an email that already has an
   * account (which uses it up): so an invite can neither tell which emails have accounts nor probe many.
   */
  public static final String INVITE_REFUSED = "Invalid or already used invite";

  /** Whether an invite could sign somebody up now (it is known and unused). */
  public Future<Boolean> inviteUsable(String code) {
    return INVITE_CHECK.call(bus, new Invite(code)).map(InviteState::usable);
  }

  /** A new, unused invite code. */
  public Future<String> createInvite() {
    return INVITE_CREATE.call(bus, null).map(Invite::code);
  }

  // Conversations

  public Future<Conversation> createConversation(String userId, String title) {
    return CONVERSATION_CREATE.call(bus, new NewConversation(userId, newId(), title));
  }

  /** Newest first. */
  public Future<List<Conversation>> conversations(String userId) {
    return CONVERSATION_LIST.call(bus, new UserRef(userId));
  }

  /** At most {@link #SEARCH_LIMIT}, newest first, each with the first message text that holds it, or null. */
  public Future<List<Found>> searchConversations(String userId, String query) {
    return CONVERSATION_SEARCH.call(bus, new Search(userId, query));
  }

  /** Conversations a search answers at most. */
  public static final int SEARCH_LIMIT = 50;

  public Future<Conversation> conversation(String userId, String conversationId) {
    return CONVERSATION_GET.call(bus, new ConversationRef(userId, conversationId));
  }

  public Future<Conversation> renameConversation(String userId, String conversationId, String title) {
    return CONVERSATION_RENAME.call(bus, new RenameConversation(userId, conversationId, title));
  }

  /** Deletes the conversation with its messages, datasets and results. */
  public Future<Void> deleteConversation(String userId, String conversationId) {
    return CONVERSATION_DELETE.call(bus, new ConversationRef(userId, conversationId));
  }

  // Messages

  public Future<ChatMessage> appendMessage(String userId, ChatMessage message) {
    return MESSAGE_APPEND.call(bus, new AppendMessage(userId, message.id() == null ? message.withId(newId()) : message));
  }

  /**
   * Ends an answer that its llm node left unfinished: still streaming (or never saved), it is kept as it stands,
   * marked interrupted with {@code notice}. Answers the message as stored, which may have ended already.
   */
  public Future<ChatMessage> interruptMessage(String userId, String conversationId, String messageId, String notice) {
    return MESSAGE_INTERRUPT.call(bus, new InterruptMessage(userId, conversationId, messageId, notice));
  }

  /** See {@link StorageOps#MESSAGE_REOPEN}. */
  public Future<ChatMessage> reopenMessage(String userId, String conversationId, String messageId, String notice) {
    return MESSAGE_REOPEN.call(bus, new ReopenMessage(userId, conversationId, messageId, notice));
  }

  /** Oldest first. */
  public Future<List<ChatMessage>> messages(String userId, String conversationId) {
    return MESSAGE_LIST.call(bus, new ConversationRef(userId, conversationId));
  }

  // Datasets

  /**
   * Atomically reserves a slot and a name ({@code tableN}) for a URL in a conversation, as a dataset in
   * {@code loading} state. CONFLICT "This dataset is already loaded" or "Maximum N datasets reached".
   */
  public Future<Dataset> claimDataset(String userId, String conversationId, String url, int maxDatasets) {
    return DATASET_CLAIM.call(bus, new ClaimDataset(userId, conversationId, url, maxDatasets, newId()));
  }

  /** In the order they were added. */
  public Future<List<Dataset>> datasets(String userId, String conversationId) {
    return DATASET_LIST.call(bus, new ListDatasets(userId, conversationId, false));
  }

  /**
   * The datasets a query will read. CONFLICT when the account already stores as many query results as it
   * may keep: its queries stop until old conversations are deleted.
   */
  public Future<List<Dataset>> datasetsForQuery(String userId, String conversationId) {
    return DATASET_LIST.call(bus, new ListDatasets(userId, conversationId, true));
  }

  public Future<Dataset> dataset(String userId, String conversationId, String datasetId) {
    return DATASET_GET.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }

  /** Stores status, schema, counts, size, etag and error of a dataset. */
  public Future<Dataset> updateDataset(String userId, Dataset dataset) {
    return DATASET_UPDATE.call(bus, new UpdateDataset(userId, dataset));
  }

  /** CONFLICT when another dataset of the conversation has that name. */
  public Future<Dataset> renameDataset(String userId, String conversationId, String datasetId, String name) {
    return DATASET_RENAME.call(bus, new RenameDataset(userId, conversationId, datasetId, name));
  }

  public Future<Dataset> deleteDataset(String userId, String conversationId, String datasetId) {
    return DATASET_DELETE.call(bus, new DatasetRef(userId, conversationId, datasetId));
  }

  // Query results

  /**
   * Stores a result (at most {@link QueryResult#MAX_ROWS} rows) and returns it with its id: the one it
   * carries, or a new one; the id names the result once this has succeeded. Storage answers with the id alone:
   * echoing a thousand rows back would only cost a copy.
   */
  public Future<QueryResult> saveResult(String userId, QueryResult result) {
    QueryResult capped = result.id() == null ? result.capped().stored(newId(), Timestamps.now()) : result.capped();
    return RESULT_SAVE.call(bus, new SaveResult(userId, capped)).map(saved -> capped.stored(saved.id(), saved.createdAt()));
  }

  public Future<QueryResult> result(String userId, String resultId) {
    return RESULT_GET.call(bus, new ResultRef(userId, resultId));
  }

  /**
   * Marks a result the user ran themselves (see {@link ResultRun}); the run comes back with
   * the time it was marked. NOT_FOUND when the result is not the user's.
   */
  public Future<ResultRun> saveRun(String userId, ResultRun run) {
    return RUN_SAVE.call(bus, new SaveRun(userId, run));
  }

  /** The results the user ran themselves in a conversation, oldest first. */
  public Future<List<ResultRun>> runs(String userId, String conversationId) {
    return RUN_LIST.call(bus, new ConversationRef(userId, conversationId));
  }

  // Token usage

  public Future<Void> recordUsage(TokenUsage usage) {
    return USAGE_RECORD.call(bus, new RecordUsage(usage, newId()));
  }

  /** Tokens the user consumed since an ISO-8601 instant, each use listed. */
  public Future<UsageWindow> usageSince(String userId, String sinceIso) {
    return usageSince(userId, sinceIso, 0);
  }

  /** Tokens the user consumed since an ISO-8601 instant, each use listed only when they reach {@code listFrom}. */
  public Future<UsageWindow> usageSince(String userId, String sinceIso, long listFrom) {
    return USAGE_WINDOW.call(bus, new UsageSince(userId, sinceIso, listFrom));
  }

  /** Whether the database answers, within {@code timeoutMs}; sent once: readiness says what is, now. */
  public Future<Void> ping(long timeoutMs) {
    return PING.call(bus, null, timeoutMs);
  }

  private static String newId() {
    return UUID.randomUUID().toString();
  }
}
