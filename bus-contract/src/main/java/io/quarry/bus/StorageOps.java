package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Scopes.UserRef;
import io.vertx.core.json.JsonObject;

/**
 * The storage-verticle's operations. Every one but the session and user look-ups is scoped by user id.
 *
 * <p>Storage may run on several nodes (PostgreSQL), and one may die with requests in flight: every operation but
 * sign-up, a new invite and a dataset's removal is sent again when its node may have died ({@link Failover}). So
 * each is made safe to deliver twice: reads are; what creates a row names it in its request (a conversation's, a
 * dataset's, a message's, a result's id, a token record's request id), so a second delivery finds it made; updates
 * set what they set again.
 */
public final class StorageOps {

  private StorageOps() {
  }

  private static final long WAIT = Deliveries.STORAGE_TIMEOUT_MS;

  // Requests

  public record NewUser(String email, String passwordHash, String invite) {
    static final Codec<NewUser> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.EMAIL, r.email).put(Keys.PASSWORD_HASH, r.passwordHash).put(Keys.INVITE, r.invite),
        json -> new NewUser(text(json, Keys.EMAIL), text(json, Keys.PASSWORD_HASH), text(json, Keys.INVITE)));
  }

  public record Email(String email) {
    static final Codec<Email> CODEC = Codec.json(r -> new JsonObject().put(Keys.EMAIL, r.email),
        json -> new Email(text(json, Keys.EMAIL)));
  }

  public record NewSession(String userId, String tokenHash, String expiresAt) {
    static final Codec<NewSession> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId)
            .put(Keys.TOKEN_HASH, r.tokenHash).put(Keys.EXPIRES_AT, r.expiresAt),
        json -> new NewSession(text(json, Keys.USER_ID), text(json, Keys.TOKEN_HASH), text(json, Keys.EXPIRES_AT)));
  }

  /** A session, named by the hash of its token (the token itself never leaves the edge). */
  public record SessionRef(String tokenHash) {
    static final Codec<SessionRef> CODEC = Codec.json(r -> new JsonObject().put(Keys.TOKEN_HASH, r.tokenHash),
        json -> new SessionRef(text(json, Keys.TOKEN_HASH)));
  }

  public record Invite(String code) {
    static final Codec<Invite> CODEC = Codec.json(r -> new JsonObject().put(Keys.CODE, r.code),
        json -> new Invite(text(json, Keys.CODE)));
  }

  /** Whether an invite could sign somebody up now (it is known and unused). */
  public record InviteState(boolean usable) {
    static final Codec<InviteState> CODEC = Codec.json(r -> new JsonObject().put(Keys.USABLE, r.usable),
        json -> new InviteState(json.getBoolean(Keys.USABLE, false)));
  }

  /** {@code id}: chosen by the caller, so that a second delivery finds the conversation made. */
  public record NewConversation(String userId, String id, String title) {
    static final Codec<NewConversation> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.ID, r.id).put(Keys.TITLE, r.title),
        json -> new NewConversation(text(json, Keys.USER_ID), Fields.optional(json, Keys.ID),
            text(json, Keys.TITLE)));
  }

  public record Search(String userId, String query) {
    static final Codec<Search> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.QUERY, r.query),
        json -> new Search(text(json, Keys.USER_ID), text(json, Keys.QUERY)));
  }

  /** A conversation a search found, with {@code match}: a few words around the first message that holds it, or null. */
  public record Found(Conversation conversation, String match) {
    static final Codec<Found> CODEC = Codec.json(Found::toJson,
        json -> new Found(Conversation.fromJson(json), json.getString(Keys.MATCH)));

    public JsonObject toJson() {
      return conversation.toJson().put(Keys.MATCH, match);
    }
  }

  public record RenameConversation(String userId, String conversationId, String title) {
    static final Codec<RenameConversation> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.TITLE, r.title),
        json -> new RenameConversation(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.TITLE)));
  }

  /** The message names its own id (a caller's choice), so a second delivery finds it stored. */
  public record AppendMessage(String userId, ChatMessage message) {
    static final Codec<AppendMessage> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.MESSAGE, r.message.toJson()),
        json -> new AppendMessage(text(json, Keys.USER_ID), ChatMessage.fromJson(json.getJsonObject(Keys.MESSAGE, new JsonObject()))));
  }

  public record InterruptMessage(String userId, String conversationId, String messageId, String notice) {
    static final Codec<InterruptMessage> CODEC = Codec.json(r -> new ConversationRef(r.userId, r.conversationId).toJson()
            .put(Keys.MESSAGE_ID, r.messageId).put(Keys.NOTICE, r.notice),
        json -> new InterruptMessage(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            text(json, Keys.MESSAGE_ID), text(json, Keys.NOTICE)));
  }

  /** {@code notice}: the notice the answer must still end with, the one that says it was cut off. */
  public record ReopenMessage(String userId, String conversationId, String messageId, String notice) {
    static final Codec<ReopenMessage> CODEC = Codec.json(r -> new ConversationRef(r.userId, r.conversationId).toJson()
            .put(Keys.MESSAGE_ID, r.messageId).put(Keys.NOTICE, r.notice),
        json -> new ReopenMessage(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            text(json, Keys.MESSAGE_ID), text(json, Keys.NOTICE)));
  }

  /** {@code datasetId}: chosen by the caller, so that a second delivery finds the claim made. */
  public record ClaimDataset(String userId, String conversationId, String url, int maxDatasets, String datasetId) {
    static final Codec<ClaimDataset> CODEC = Codec.json(r -> new ConversationRef(r.userId, r.conversationId).toJson()
            .put(Keys.URL, r.url).put(Keys.MAX_DATASETS, r.maxDatasets).put(Keys.DATASET_ID, r.datasetId),
        json -> new ClaimDataset(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.URL),
            json.getInteger(Keys.MAX_DATASETS, 5), json.getString(Keys.DATASET_ID)));
  }

  /** {@code forQuery}: the tables are for a query, which an account over its result quota may not run. */
  public record ListDatasets(String userId, String conversationId, boolean forQuery) {
    static final Codec<ListDatasets> CODEC = Codec.json(r -> {
      JsonObject json = new ConversationRef(r.userId, r.conversationId).toJson();
      return r.forQuery ? json.put(Keys.FOR_QUERY, true) : json;
    }, json -> new ListDatasets(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
        json.getBoolean(Keys.FOR_QUERY, false)));
  }

  public record UpdateDataset(String userId, Dataset dataset) {
    static final Codec<UpdateDataset> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.DATASET, r.dataset.toJson()),
        json -> new UpdateDataset(text(json, Keys.USER_ID), Dataset.fromJson(json.getJsonObject(Keys.DATASET, new JsonObject()))));
  }

  /** {@code name} is checked by whoever serves it: storage needs one, the dataset verticle says what a name may be. */
  public record RenameDataset(String userId, String conversationId, String datasetId, String name) {
    public static final Codec<RenameDataset> CODEC = Codec.json(
        r -> new DatasetRef(r.userId, r.conversationId, r.datasetId).toJson().put(Keys.NAME, r.name),
        json -> new RenameDataset(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), text(json, Keys.DATASET_ID),
            Fields.optional(json, Keys.NAME)));

    public DatasetRef ref() {
      return new DatasetRef(userId, conversationId, datasetId);
    }
  }

  /** At most {@link QueryResult#MAX_ROWS} rows; its id is the caller's (so a read of it can wait for this save). */
  public record SaveResult(String userId, QueryResult result) {
    static final Codec<SaveResult> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.RESULT, r.result.toJson()),
        json -> new SaveResult(text(json, Keys.USER_ID), QueryResult.fromJson(json.getJsonObject(Keys.RESULT, new JsonObject()))));
  }

  /** What storage answers to a save: the id alone and when, since echoing a thousand rows would only cost a copy. */
  public record Saved(String id, String createdAt) {
    static final Codec<Saved> CODEC = Codec.json(r -> new JsonObject().put(Keys.ID, r.id).put(Keys.CREATED_AT, r.createdAt),
        json -> new Saved(json.getString(Keys.ID), json.getString(Keys.CREATED_AT)));
  }

  public record ResultRef(String userId, String resultId) {
    static final Codec<ResultRef> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.RESULT_ID, r.resultId),
        json -> new ResultRef(text(json, Keys.USER_ID), text(json, Keys.RESULT_ID)));
  }

  public record SaveRun(String userId, ResultRun run) {
    static final Codec<SaveRun> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.RUN, r.run.toJson()),
        json -> new SaveRun(text(json, Keys.USER_ID), ResultRun.fromJson(json.getJsonObject(Keys.RUN, new JsonObject()))));
  }

  /** {@code requestId} names this record, so a second delivery of it is known as such. */
  public record RecordUsage(TokenUsage usage, String requestId) {
    static final Codec<RecordUsage> CODEC = Codec.json(r -> r.usage.toJson().put(Keys.REQUEST_ID, r.requestId),
        json -> {
          text(json, Keys.USER_ID);
          return new RecordUsage(TokenUsage.fromJson(json), json.getString(Keys.REQUEST_ID));
        });
  }

  /**
   * Tokens used since an ISO-8601 instant, with each use listed ({@link UsageWindow#entries()}) only when the total
   * reaches {@code listFrom} (0: always): only a user at the limit needs them, to hear when asking works again, and a
   * busy account's day holds thousands, which every turn's checks would read.
   */
  public record UsageSince(String userId, String since, long listFrom) {
    static final Codec<UsageSince> CODEC = Codec.json(r -> new JsonObject().put(Keys.USER_ID, r.userId)
            .put(Keys.SINCE, r.since).put(Keys.LIST_FROM, r.listFrom),
        json -> new UsageSince(text(json, Keys.USER_ID), text(json, Keys.SINCE), json.getLong(Keys.LIST_FROM, 0L)));
  }

  /**
   * Whose token to make (or list): the user of {@code userId}, else of {@code email}, else the local user; what it may
   * do ({@link TokenScope}; {@code chat}, everything, when it names none); an optional {@code name} (at most {@value
   * #TOKEN_NAME_MAX} characters) and when it stops working ({@code expiresAt}, ISO-8601; null: never).
   */
  public record NewToken(String email, String userId, TokenScope scope, String name, String expiresAt) {
    static final Codec<NewToken> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.EMAIL, r.email).put(Keys.USER_ID, r.userId).put("scope", r.scope.label())
            .put(Keys.NAME, r.name).put(Keys.EXPIRES_AT, r.expiresAt),
        json -> new NewToken(Fields.optional(json, Keys.EMAIL), Fields.optional(json, Keys.USER_ID),
            TokenScope.of(json.getString("scope", TokenScope.CHAT.label())), Fields.optional(json, Keys.NAME),
            Fields.optional(json, Keys.EXPIRES_AT)));

    public NewToken(String email, TokenScope scope) {
      this(email, null, scope, null, null);
    }

    public NewToken(String email) {
      this(email, TokenScope.CHAT);
    }

    public static NewToken local() {
      return new NewToken(null);
    }

    /** The longest a token may be made to last, in days (ten years). */
    public static final int MAX_DAYS = 3650;

    /**
     * When a token made now for {@code days} days expires, as stored; null (never) for null. BAD_REQUEST unless 1 to
     * {@value #MAX_DAYS}: the one rule of the CLI and the account page.
     */
    public static String expiresIn(Integer days) {
      if (days == null) {
        return null;
      }
      if (days < 1 || days > MAX_DAYS) {
        throw QuarryException.badRequest("A token lasts 1 to " + MAX_DAYS + " days, or never expires");
      }
      return Timestamps.format(java.time.Instant.now().plus(java.time.Duration.ofDays(days)));
    }

    /** A token of the user with this id (the account page's), named, expiring or not. */
    public static NewToken of(String userId, TokenScope scope, String name, String expiresAt) {
      return new NewToken(null, userId, scope, name, expiresAt);
    }

    /** The tokens of the user with this id. */
    public static NewToken whose(String userId) {
      return new NewToken(null, userId, TokenScope.CHAT, null, null);
    }
  }

  /** The longest name a token may have. */
  public static final int TOKEN_NAME_MAX = 100;

  /** A token's user, what the token may do, and its id (what per-token limits count by). */
  public record TokenUser(User user, TokenScope scope, String tokenId) {
    static final Codec<TokenUser> CODEC = Codec.json(
        r -> r.user.toJson().put("scope", r.scope.label()).put("token_id", r.tokenId),
        json -> new TokenUser(User.fromJson(json), TokenScope.of(json.getString("scope")),
            json.getString("token_id")));
  }

  /**
   * A token as its user may see it again: never the token itself, which was shown once. {@code lastUsedAt} is to the
   * minute (it is written at most once a minute); {@code expiresAt} and {@code revokedAt} are null when they are not.
   */
  public record TokenInfo(String id, String name, TokenScope scope, String createdAt, String lastUsedAt,
      String expiresAt, String revokedAt) {
    static final Codec<TokenInfo> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.ID, r.id).put(Keys.NAME, r.name).put("scope", r.scope.label())
            .put(Keys.CREATED_AT, r.createdAt).put("last_used_at", r.lastUsedAt).put(Keys.EXPIRES_AT, r.expiresAt)
            .put("revoked_at", r.revokedAt),
        json -> new TokenInfo(json.getString(Keys.ID), json.getString(Keys.NAME),
            TokenScope.of(json.getString("scope")), json.getString(Keys.CREATED_AT), json.getString("last_used_at"),
            json.getString(Keys.EXPIRES_AT), json.getString("revoked_at")));

    /** {@code active}, {@code revoked} or {@code expired}, as of {@code now} (ISO-8601, as stored). */
    public String status(String now) {
      return revokedAt != null ? "revoked" : expiresAt != null && expiresAt.compareTo(now) <= 0 ? "expired" : "active";
    }

    /** As the account page shows it: the record's fields, and its status now. */
    public JsonObject toJson(String now) {
      return ((JsonObject) CODEC.encode(this)).put("status", status(now));
    }
  }

  public record ApiToken(String id, String token, String userId) {
    static final Codec<ApiToken> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.ID, r.id).put("token", r.token).put(Keys.USER_ID, r.userId),
        json -> new ApiToken(json.getString(Keys.ID), json.getString("token"), json.getString(Keys.USER_ID)));
  }

  /** A token named by its hash, as the bridge finds its user. */
  public record TokenHash(String tokenHash) {
    static final Codec<TokenHash> CODEC = Codec.json(r -> new JsonObject().put(Keys.TOKEN_HASH, r.tokenHash),
        json -> new TokenHash(text(json, Keys.TOKEN_HASH)));
  }

  /**
   * A token named by its id: as its operator revokes it ({@code userId} null, any user's), or as its user does (their
   * own only: another user's is NOT_FOUND, as an unknown one).
   */
  public record TokenId(String id, String userId) {
    static final Codec<TokenId> CODEC = Codec.json(r -> new JsonObject().put(Keys.ID, r.id).put(Keys.USER_ID, r.userId),
        json -> new TokenId(text(json, Keys.ID), Fields.optional(json, Keys.USER_ID)));

    public TokenId(String id) {
      this(id, null);
    }
  }

  // Codecs of the entities

  static final Codec<User> USER = Codec.json(User::toJson, User::fromJson);
  static final Codec<Conversation> CONVERSATION = Codec.json(Conversation::toJson, Conversation::fromJson);
  static final Codec<ChatMessage> MESSAGE = Codec.json(ChatMessage::toJson, ChatMessage::fromJson);
  static final Codec<Dataset> DATASET = Codec.json(Dataset::toJson, Dataset::fromJson);
  static final Codec<ResultRun> RUN = Codec.json(ResultRun::toJson, ResultRun::fromJson);

  // Operations

  /** The single user of {@code auth.mode=local}, created on first use. */
  public static final Operation<Void, User> USER_LOCAL = idempotent(STORAGE_USER_LOCAL, Codec.NONE, USER);
  /** Creates a user, using up an unused invite in the same transaction. */
  public static final Operation<NewUser, User> USER_CREATE = once(STORAGE_USER_CREATE, NewUser.CODEC, USER);
  public static final Operation<UserRef, User> USER_GET = idempotent(STORAGE_USER_GET, UserRef.CODEC, USER);
  /** NOT_FOUND when there is no user with this email. */
  public static final Operation<Email, Credentials> USER_CREDENTIALS = idempotent(STORAGE_USER_CREDENTIALS, Email.CODEC,
      Codec.json(Credentials::toJson, Credentials::fromJson));
  public static final Operation<NewSession, Void> SESSION_CREATE = idempotent(STORAGE_SESSION_CREATE, NewSession.CODEC,
      Codec.NONE);
  /** The user of an unexpired session; NOT_FOUND otherwise. */
  public static final Operation<SessionRef, User> SESSION_FIND = idempotent(STORAGE_SESSION_FIND, SessionRef.CODEC, USER);
  public static final Operation<SessionRef, Void> SESSION_DELETE = idempotent(STORAGE_SESSION_DELETE, SessionRef.CODEC,
      Codec.NONE);
  /** A new, unused invite code; only its hash is kept. */
  public static final Operation<Void, Invite> INVITE_CREATE = once(STORAGE_INVITE_CREATE, Codec.NONE, Invite.CODEC);
  public static final Operation<Invite, InviteState> INVITE_CHECK = idempotent(STORAGE_INVITE_CHECK, Invite.CODEC,
      InviteState.CODEC);

  public static final Operation<NewConversation, Conversation> CONVERSATION_CREATE = idempotent(
      STORAGE_CONVERSATION_CREATE, NewConversation.CODEC, CONVERSATION);
  /** Newest first. */
  public static final Operation<UserRef, java.util.List<Conversation>> CONVERSATION_LIST = idempotent(
      STORAGE_CONVERSATION_LIST, UserRef.CODEC, Codec.items(CONVERSATION));
  /** At most {@link StorageClient#SEARCH_LIMIT}, newest first. */
  public static final Operation<Search, java.util.List<Found>> CONVERSATION_SEARCH = idempotent(
      STORAGE_CONVERSATION_SEARCH, Search.CODEC, Codec.items(Found.CODEC));
  public static final Operation<ConversationRef, Conversation> CONVERSATION_GET = idempotent(STORAGE_CONVERSATION_GET,
      ConversationRef.CODEC, CONVERSATION);
  public static final Operation<RenameConversation, Conversation> CONVERSATION_RENAME = idempotent(
      STORAGE_CONVERSATION_RENAME, RenameConversation.CODEC, CONVERSATION);
  /** With its messages, datasets and results. */
  public static final Operation<ConversationRef, Void> CONVERSATION_DELETE = Operation.of(STORAGE_CONVERSATION_DELETE,
      ConversationRef.CODEC, Codec.NONE, WAIT, Resend.REMOVAL);

  public static final Operation<AppendMessage, ChatMessage> MESSAGE_APPEND = idempotent(STORAGE_MESSAGE_APPEND,
      AppendMessage.CODEC, MESSAGE);
  /** Oldest first. */
  public static final Operation<ConversationRef, java.util.List<ChatMessage>> MESSAGE_LIST = idempotent(
      STORAGE_MESSAGE_LIST, ConversationRef.CODEC, Codec.items(MESSAGE));
  /**
   * Ends an answer that its llm node left unfinished: still streaming (or never saved), it is kept as it stands,
   * marked interrupted with the notice. Answers the message as stored, which may have ended already.
   */
  public static final Operation<InterruptMessage, ChatMessage> MESSAGE_INTERRUPT = idempotent(
      STORAGE_MESSAGE_INTERRUPT, InterruptMessage.CODEC, MESSAGE);
  /**
   * Opens an answer that ended with {@code notice} (cut off at the model's output limit) again, as streaming, so that
   * its continuation is saved into it; one already streaming is answered as it stands (a second delivery).
   * NOT_FOUND "Message not found" (not an answer of this conversation), CONFLICT {@link #NOT_CUT_OFF}.
   */
  public static final Operation<ReopenMessage, ChatMessage> MESSAGE_REOPEN = idempotent(
      STORAGE_MESSAGE_REOPEN, ReopenMessage.CODEC, MESSAGE);
  /** Why an answer that was not cut off, or is not the conversation's last message, cannot be continued. */
  public static final String NOT_CUT_OFF = "Only the last answer, cut off at the model's output limit, can be continued";

  /**
   * Atomically reserves a slot and a name ({@code tableN}) for a URL in a conversation, as a dataset in
   * {@code loading} state. CONFLICT "This dataset is already loaded" or "Maximum N datasets reached".
   */
  public static final Operation<ClaimDataset, Dataset> DATASET_CLAIM = idempotent(STORAGE_DATASET_CLAIM,
      ClaimDataset.CODEC, DATASET);
  /** In the order they were added. */
  public static final Operation<ListDatasets, java.util.List<Dataset>> DATASET_LIST = idempotent(STORAGE_DATASET_LIST,
      ListDatasets.CODEC, Codec.items(DATASET));
  public static final Operation<DatasetRef, Dataset> DATASET_GET = idempotent(STORAGE_DATASET_GET, DatasetRef.CODEC,
      DATASET);
  /** Stores status, schema, counts, size, etag and error of a dataset. */
  public static final Operation<UpdateDataset, Dataset> DATASET_UPDATE = idempotent(STORAGE_DATASET_UPDATE,
      UpdateDataset.CODEC, DATASET);
  /** CONFLICT when another dataset of the conversation has that name. */
  public static final Operation<RenameDataset, Dataset> DATASET_RENAME = idempotent(STORAGE_DATASET_RENAME,
      RenameDataset.CODEC, DATASET);
  public static final Operation<DatasetRef, Dataset> DATASET_DELETE = once(STORAGE_DATASET_DELETE, DatasetRef.CODEC,
      DATASET);

  public static final Operation<SaveResult, Saved> RESULT_SAVE = idempotent(STORAGE_RESULT_SAVE, SaveResult.CODEC,
      Saved.CODEC);
  public static final Operation<ResultRef, QueryResult> RESULT_GET = idempotent(STORAGE_RESULT_GET, ResultRef.CODEC,
      Codec.json(QueryResult::toJson, QueryResult::fromJson));
  /** NOT_FOUND when the result is not the user's; a second delivery changes nothing. */
  public static final Operation<SaveRun, ResultRun> RUN_SAVE = idempotent(STORAGE_RUN_SAVE, SaveRun.CODEC, RUN);
  /** Oldest first. */
  public static final Operation<ConversationRef, java.util.List<ResultRun>> RUN_LIST = idempotent(STORAGE_RUN_LIST,
      ConversationRef.CODEC, Codec.items(RUN));

  public static final Operation<RecordUsage, Void> USAGE_RECORD = idempotent(STORAGE_USAGE_RECORD, RecordUsage.CODEC,
      Codec.NONE);
  public static final Operation<UsageSince, UsageWindow> USAGE_WINDOW = idempotent(STORAGE_USAGE_WINDOW,
      UsageSince.CODEC, Codec.json(UsageWindow::toJson, UsageWindow::fromJson));

  /**
   * A new API token for the user of an email (NOT_FOUND when there is none), or for the single user of
   * {@code auth.mode=local} when it names none.
   */
  public static final Operation<NewToken, ApiToken> TOKEN_CREATE = once(STORAGE_TOKEN_CREATE, NewToken.CODEC,
      ApiToken.CODEC);
  /**
   * The user of an API token that is neither revoked nor expired, its scope and id; NOT_FOUND for an unknown or revoked
   * one, UNAUTHORIZED "This token expired on 2026-12-01" for an expired one. Notes when the token was used, at most
   * once a minute, without waiting for the write.
   */
  public static final Operation<TokenHash, TokenUser> TOKEN_FIND = idempotent(STORAGE_TOKEN_FIND, TokenHash.CODEC,
      TokenUser.CODEC);
  /**
   * Revokes a token: every door refuses it from its next request. NOT_FOUND for an unknown id, and for another user's
   * when the request names a user.
   */
  public static final Operation<TokenId, Void> TOKEN_REVOKE = idempotent(STORAGE_TOKEN_REVOKE, TokenId.CODEC,
      Codec.NONE);
  /** A user's tokens, oldest first, the revoked ones too (with when); whose as {@link #TOKEN_CREATE} names them. */
  public static final Operation<NewToken, java.util.List<TokenInfo>> TOKEN_LIST = idempotent(STORAGE_TOKEN_LIST,
      NewToken.CODEC, Codec.items(TokenInfo.CODEC));
  /**
   * A new share link of the user's ({@link Shares.NewShare}); a second delivery answers the one made. NOT_FOUND "Conversation
   * not found" / "Message not found" (not an answer of the user's conversation); CONFLICT past
   * {@code storage.maxSharesPerUser} live links.
   */
  public static final Operation<Shares.NewShare, Shares.Share> SHARE_CREATE = idempotent(STORAGE_SHARE_CREATE,
      Shares.NewShare.CODEC, Shares.Share.CODEC);
  /** The user's shares, newest first, revoked and expired ones too. */
  public static final Operation<Scopes.UserRef, java.util.List<Shares.Share>> SHARE_LIST = idempotent(
      STORAGE_SHARE_LIST, Scopes.UserRef.CODEC, Codec.items(Shares.Share.CODEC));
  /** Revokes one of the user's shares (again: nothing changes); NOT_FOUND for another user's or an unknown id. */
  public static final Operation<Shares.ShareRef, Shares.Share> SHARE_REVOKE = idempotent(STORAGE_SHARE_REVOKE,
      Shares.ShareRef.CODEC, Shares.Share.CODEC);
  /** A live share by its token's hash, with its user; NOT_FOUND {@link Shares#NOT_FOUND} for unknown, revoked, expired. */
  public static final Operation<Shares.TokenHash, Shares.Opened> SHARE_OPEN = idempotent(STORAGE_SHARE_OPEN,
      Shares.TokenHash.CODEC, Shares.Opened.CODEC);
  /** Whether the database answers; sent once: readiness says what is, now. */
  public static final Operation<Void, Void> PING = once(STORAGE_PING, Codec.NONE, Codec.NONE);

  private static <Q, R> Operation<Q, R> idempotent(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, WAIT, Resend.IDEMPOTENT);
  }

  private static <Q, R> Operation<Q, R> once(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, WAIT, Resend.NEVER);
  }
}
