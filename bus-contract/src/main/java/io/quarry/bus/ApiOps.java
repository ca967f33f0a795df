package io.quarry.bus;

import static io.quarry.bus.Addresses.*;
import static io.quarry.bus.Fields.optional;
import static io.quarry.bus.Fields.text;

import io.quarry.bus.DatasetOps.AddDataset;
import io.quarry.bus.LlmOps.AnswerRef;
import io.quarry.bus.LlmOps.Budget;
import io.quarry.bus.LlmOps.FollowUps;
import io.quarry.bus.LlmOps.ContinueTurn;
import io.quarry.bus.LlmOps.TurnContinued;
import io.quarry.bus.LlmOps.StartTurn;
import io.quarry.bus.LlmOps.Stopped;
import io.quarry.bus.LlmOps.TurnStarted;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Scopes.DatasetRef;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageOps.Email;
import io.quarry.bus.StorageOps.RenameConversation;
import io.quarry.bus.StorageOps.RenameDataset;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Quarry's public operations: what an application outside Quarry may ask, on every web node of the cluster. Each acts
 * for the user its request names in {@code user_id} and checks what the browser's API checks for a signed-in user:
 * another user's conversation, dataset or result is {@link Failure#NOT_FOUND}, never revealed to exist; the same limits
 * and budgets apply, with the same messages. Every other address is internal: its shape may change without notice.
 *
 * <p>A failure arrives as a {@link QuarryException} ({@link BusFailure#of} reads it); what each operation may fail with
 * is said beside it. The facades of the client ({@code io.quarry.client}) are these operations as methods.
 */
public final class ApiOps {

  private ApiOps() {
  }

  /** Longest conversation title, as in the browser. */
  public static final int MAX_TITLE = 200;
  /** Longest dataset name. */
  public static final int MAX_NAME = 200;
  /** Longest SQL statement. */
  public static final int MAX_SQL = 100_000;
  /** Longest question, as in the browser. */
  public static final int MAX_QUESTION = 10_000;
  /** The largest frame a client of the TCP bridge may send (its length prefix not counted). */
  public static final int BRIDGE_MAX_FRAME_BYTES = 1 << 20;
  /** The largest frame a client of the TCP bridge may send before it has signed in. */
  public static final int BRIDGE_MAX_SIGN_IN_FRAME_BYTES = 4_096;
  /** A new conversation's title when none is given. */
  public static final String DEFAULT_TITLE = "New conversation";
  /**
   * How long a caller waits for a query or an export: longer than a node lets any query run by default (60 s), so
   * the node's own answer ({@link Failure#TIMEOUT} at its limit) arrives first.
   */
  public static final long QUERY_WAIT_MS = 10 * 60_000;
  /** How long a caller waits for an operation that asks storage a few times in turn. */
  static final long WAIT_MS = Deliveries.ACROSS_STORAGE_MS + 5_000;

  // Requests and replies of their own (the others are the internal operations' records).

  /**
   * {@code id}: optional, a UUID the caller chooses so that a request sent twice makes one conversation; {@code title}:
   * optional (at most {@link #MAX_TITLE} characters), {@link #DEFAULT_TITLE} when absent or blank. Either, when not
   * text, is BAD_REQUEST "Field 'x' must be a string", as every field of a public request is ({@link Fields}).
   */
  public record CreateConversation(String userId, String id, String title) {
    static final Codec<CreateConversation> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.ID, r.id).put(Keys.TITLE, r.title),
        json -> new CreateConversation(text(json, Keys.USER_ID), optional(json, Keys.ID),
            optional(json, Keys.TITLE)));
  }

  /** A conversation as the browser shows it: its messages, its datasets, and the SQL its user ran themselves. */
  public record ConversationRead(Conversation conversation, List<ChatMessage> messages, List<Dataset> datasets,
      List<ResultRun> runs) {
    static final Codec<ConversationRead> CODEC = Codec.json(ConversationRead::toJson, ConversationRead::fromJson);

    public JsonObject toJson() {
      return new JsonObject().put("conversation", conversation.toJson())
          .put("messages", new JsonArray(messages.stream().map(ChatMessage::toJson).toList()))
          .put("datasets", new JsonArray(datasets.stream().map(Dataset::toJson).toList()))
          .put("runs", new JsonArray(runs.stream().map(ResultRun::toJson).toList()));
    }

    public static ConversationRead fromJson(JsonObject json) {
      return new ConversationRead(Conversation.fromJson(json.getJsonObject("conversation")),
          objects(json, "messages").stream().map(ChatMessage::fromJson).toList(),
          objects(json, "datasets").stream().map(Dataset::fromJson).toList(),
          objects(json, "runs").stream().map(ResultRun::fromJson).toList());
    }
  }

  /** One read-only SQL statement over the conversation's datasets, by their table names. */
  public record Query(String userId, String conversationId, String sql) {
    static final Codec<Query> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.SQL, r.sql),
        json -> new Query(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), optional(json, Keys.SQL)));
  }

  /** A query's whole result written to a file in {@code format} ({@code csv}, {@code parquet} or {@code json}). */
  public record ExportQuery(String userId, String conversationId, String sql, String format) {
    static final Codec<ExportQuery> CODEC = Codec.json(
        r -> new ConversationRef(r.userId, r.conversationId).toJson().put(Keys.SQL, r.sql).put("format", r.format),
        json -> new ExportQuery(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID), optional(json, Keys.SQL),
            optional(json, "format")));
  }

  /** A dataset's column profile; {@code column}: optional, the one whose most frequent values and histogram to add. */
  public record ProfileDataset(String userId, String conversationId, String datasetId, String column) {
    static final Codec<ProfileDataset> CODEC = Codec.json(
        r -> new DatasetRef(r.userId, r.conversationId, r.datasetId).toJson().put(Keys.COLUMN, r.column),
        json -> new ProfileDataset(text(json, Keys.USER_ID), text(json, Keys.CONVERSATION_ID),
            text(json, Keys.DATASET_ID), optional(json, Keys.COLUMN)));
  }

  /**
   * A read-only link to the user's conversation as it is now, or with {@code messageId} to that answer and its question,
   * or to the user's board ({@code boardId}: its tiles as they are when the link is opened) ({@link Shares}): exactly
   * one of {@code conversationId} and {@code boardId}. Optional: {@code audience} ({@code users}, the default, or
   * {@code anyone}, within the server's {@code share.audience}), {@code displayName} (at most {@value Shares#MAX_NAME}
   * characters; "a Quarry user" when absent), {@code expiresInDays} (1 to {@value Shares#MAX_DAYS}, as text as every
   * field is; never when absent).
   */
  public record CreateShare(String userId, String conversationId, String messageId, String boardId, String audience,
      String displayName, String expiresInDays) {
    static final Codec<CreateShare> CODEC = Codec.json(
        r -> new JsonObject().put(Keys.USER_ID, r.userId).put(Keys.CONVERSATION_ID, r.conversationId)
            .put(Keys.MESSAGE_ID, r.messageId).put(Keys.BOARD_ID, r.boardId)
            .put("audience", r.audience).put("display_name", r.displayName).put("expires_in_days", r.expiresInDays),
        json -> new CreateShare(text(json, Keys.USER_ID), optional(json, Keys.CONVERSATION_ID),
            optional(json, Keys.MESSAGE_ID), optional(json, Keys.BOARD_ID), optional(json, "audience"),
            optional(json, "display_name"), optional(json, "expires_in_days")));
  }

  /** A share link just made: the share, and its token and address ({@code /s/<token>}), this once. */
  public record ShareMade(Shares.Share share, String token, String url) {
    static final Codec<ShareMade> CODEC = Codec.json(r -> r.share.toJson().put("token", r.token).put(Keys.URL, r.url),
        json -> new ShareMade(Shares.Share.fromJson(json), json.getString("token"), json.getString(Keys.URL)));
  }

  private static List<JsonObject> objects(JsonObject json, String key) {
    return json.getJsonArray(key, new JsonArray()).stream().map(JsonObject.class::cast).toList();
  }

  private static final Codec<User> USER = StorageOps.USER;
  private static final Codec<Conversation> CONVERSATION = StorageOps.CONVERSATION;
  private static final Codec<Dataset> DATASET = StorageOps.DATASET;
  private static final Codec<QueryResult> RESULT = Codec.json(QueryResult::toJson, QueryResult::fromJson);

  // Users

  /** The single user of {@code auth.mode=local}. NOT_FOUND on a server whose users sign in with passwords. */
  public static final Operation<Void, User> USER_LOCAL = read(API_USER_LOCAL, Codec.NONE, USER);
  /** A user by email: NOT_FOUND when there is none. */
  public static final Operation<Email, User> USER_FIND = read(API_USER_FIND, Email.CODEC, USER);

  // Conversations

  /**
   * A new conversation. NOT_FOUND for an unknown user; BAD_REQUEST for a title too long or an id not a UUID; CONFLICT
   * "Field 'id' is already in use: choose another UUID" for an id another user's conversation has, whoever's it is
   * (the user's own answers that conversation, as a request sent twice must).
   */
  public static final Operation<CreateConversation, Conversation> CONVERSATION_CREATE = read(API_CONVERSATION_CREATE,
      CreateConversation.CODEC, CONVERSATION);
  /** The user's conversations, newest first. */
  public static final Operation<UserRef, List<Conversation>> CONVERSATION_LIST = read(API_CONVERSATION_LIST,
      UserRef.CODEC, Codec.items(CONVERSATION));
  /** A conversation with its messages, datasets and runs. NOT_FOUND when it is not the user's. */
  public static final Operation<ConversationRef, ConversationRead> CONVERSATION_GET = read(API_CONVERSATION_GET,
      ConversationRef.CODEC, ConversationRead.CODEC);
  /** BAD_REQUEST for a title missing or too long; NOT_FOUND. */
  public static final Operation<RenameConversation, Conversation> CONVERSATION_RENAME = read(API_CONVERSATION_RENAME,
      RenameConversation.CODEC, CONVERSATION);
  /** Deletes it with its messages, datasets and results. NOT_FOUND (also after a delivery that did it). */
  public static final Operation<ConversationRef, Void> CONVERSATION_DELETE = Operation.of(API_CONVERSATION_DELETE,
      ConversationRef.CODEC, Codec.NONE, WAIT_MS, Resend.REMOVAL);

  // Datasets

  /**
   * Adds a Parquet file by URL; BAD_REQUEST with the pipeline's exact message ("Invalid URL format", "Could not access
   * URL", "Not a valid parquet file", "Maximum 5 datasets reached", ...); NOT_FOUND. Sent once.
   */
  public static final Operation<AddDataset, Dataset> DATASET_ADD = Operation.of(API_DATASET_ADD, AddDataset.CODEC,
      DATASET, Deliveries.DATASET_TIMEOUT_MS + 5_000, Resend.NEVER);
  /** The conversation's datasets; NOT_FOUND. */
  public static final Operation<ConversationRef, List<Dataset>> DATASET_LIST = read(API_DATASET_LIST,
      ConversationRef.CODEC, Codec.items(DATASET));
  /** BAD_REQUEST for a name that is not a valid SQL identifier; CONFLICT when another dataset has it; NOT_FOUND. */
  public static final Operation<RenameDataset, Dataset> DATASET_RENAME = read(API_DATASET_RENAME, RenameDataset.CODEC,
      DATASET);
  /** Reads the file's schema again (pipeline steps 2–5); fails as an add does. Sent once. */
  public static final Operation<DatasetRef, Dataset> DATASET_REFRESH = Operation.of(API_DATASET_REFRESH,
      DatasetRef.CODEC, DATASET, Deliveries.DATASET_TIMEOUT_MS + 5_000, Resend.NEVER);
  /** The removed dataset; NOT_FOUND. Sent once. */
  public static final Operation<DatasetRef, Dataset> DATASET_REMOVE = Operation.of(API_DATASET_REMOVE,
      DatasetRef.CODEC, DATASET, WAIT_MS, Resend.NEVER);

  /**
   * A ready dataset's column profile ({@link Profile}): rows, and per column nulls, min, max and distinct values (an
   * estimate); with {@code column}, that column's most frequent values and histogram too. Footer statistics are read
   * with no scan; the rest is computed once per version of the file. NOT_FOUND (also for an unknown column), CONFLICT
   * (not ready), TOO_LARGE (past the profile's byte budget), and what a query fails with.
   */
  public static final Operation<ProfileDataset, Profile> DATASET_PROFILE = Operation.of(API_DATASET_PROFILE,
      ProfileDataset.CODEC, Codec.json(Profile::toJson, Profile::fromJson), QUERY_WAIT_MS, Resend.NOT_ON_TIMEOUT);

  // Queries

  /**
   * Runs SQL and stores its result (at most 1,000 rows). SQL, BAD_REQUEST (not one read query; longer than
   * {@link #MAX_SQL}), TIMEOUT, NETWORK, TOO_LARGE, RATE_LIMITED (too many queries at once), UNAVAILABLE (busy),
   * NOT_FOUND.
   */
  public static final Operation<Query, QueryResult> QUERY_RUN = Operation.of(API_QUERY_RUN, Query.CODEC, RESULT,
      QUERY_WAIT_MS, Resend.NOT_ON_TIMEOUT);
  /**
   * Writes the query's whole result to a file, within the server's export limits (TOO_LARGE past them): the reply's
   * {@link QueryResult#export()} says where to read it ({@link Export}). Fails as a query does.
   */
  public static final Operation<ExportQuery, QueryResult> QUERY_EXPORT = Operation.of(API_QUERY_EXPORT,
      ExportQuery.CODEC, RESULT, QUERY_WAIT_MS, Resend.NEVER);

  /**
   * A stored result (a query's, or one of an answer's SQL runs) by its id, with its rows (at most
   * {@link QueryResult#MAX_ROWS}). NOT_FOUND when it is not the user's.
   */
  public static final Operation<StorageOps.ResultRef, QueryResult> RESULT_GET = read(API_RESULT_GET,
      StorageOps.ResultRef.CODEC, RESULT);

  // Turns: the answer streams as events on Addresses.chatEvents(user_id)

  /**
   * Asks a question; the answer streams as events under the reply's {@code message_id}. BAD_REQUEST (empty, longer than
   * {@link #MAX_QUESTION}), NOT_FOUND, CONFLICT "Generation already in progress for this conversation", RATE_LIMITED
   * (with {@code resets_in_seconds}), UNAVAILABLE (chat not configured, or the node is restarting). Sent once.
   */
  public static final Operation<StartTurn, TurnStarted> TURN_START = Operation.of(API_TURN_START, StartTurn.CODEC,
      TurnStarted.CODEC, WAIT_MS, Resend.NEVER);
  /**
   * Continues an answer cut off at the model's output limit: the rest streams as events under the same
   * {@code message_id} and is appended to it; counted in the user's token budget like a question. NOT_FOUND (not an
   * answer of the user's conversation), CONFLICT "Generation already in progress for this conversation" or "Only the
   * last answer, cut off at the model's output limit, can be continued", RATE_LIMITED, UNAVAILABLE. Sent once.
   */
  public static final Operation<ContinueTurn, TurnContinued> TURN_CONTINUE = Operation.of(API_TURN_CONTINUE,
      ContinueTurn.CODEC, TurnContinued.CODEC, WAIT_MS, Resend.NEVER);
  /** Stops the conversation's running answer, keeping what it wrote; NOT_FOUND. */
  public static final Operation<ConversationRef, Stopped> TURN_STOP = Operation.of(API_TURN_STOP,
      ConversationRef.CODEC, Stopped.CODEC, WAIT_MS, Resend.NEVER);

  /**
   * Two or three next questions for an answer, written by the model (one request without tools, counted in the user's
   * token budget), where the server's {@code chat.followUps} is {@code model}; elsewhere CONFLICT, and the page makes
   * its own from the schema and the result. NOT_FOUND (not a complete answer of the user's conversation),
   * RATE_LIMITED, UNAVAILABLE (chat not configured, or the model failed). Sent once.
   */
  public static final Operation<AnswerRef, FollowUps> TURN_FOLLOW_UPS = Operation.of(API_TURN_FOLLOW_UPS,
      AnswerRef.CODEC, FollowUps.CODEC, WAIT_MS, Resend.NEVER);

  // Usage

  /** The user's token budget over the rolling 24 hours. */
  public static final Operation<UserRef, Budget> USAGE_GET = read(API_USAGE_GET, UserRef.CODEC, Budget.CODEC);

  /** Whether Quarry answers, and which web node did ({@link NodeInfo}): a client's check of its door, nothing more. */
  public static final Operation<Void, NodeInfo> PING = read(API_PING, Codec.NONE,
      Codec.json(NodeInfo::toJson, NodeInfo::fromJson));

  // Share links

  /**
   * A read-only link ({@link CreateShare}); its token is in the reply this once, only its hash is kept. BAD_REQUEST (a
   * field past its limits, an audience past {@code share.audience}, both or neither of a conversation and a board),
   * FORBIDDEN (sharing is off), NOT_FOUND (not the user's conversation, answer or board), CONFLICT (past
   * {@code storage.maxSharesPerUser} live links). Sent once.
   */
  public static final Operation<CreateShare, ShareMade> SHARE_CREATE = Operation.of(API_SHARE_CREATE,
      CreateShare.CODEC, ShareMade.CODEC, WAIT_MS, Resend.NEVER);
  /** The user's share links, newest first, revoked and expired ones too; never their tokens. */
  public static final Operation<UserRef, List<Shares.Share>> SHARE_LIST = read(API_SHARE_LIST, UserRef.CODEC,
      Codec.items(Shares.Share.CODEC));
  /** Revokes one of the user's links (the link is a 404 from then on); NOT_FOUND for another user's or an unknown one. */
  public static final Operation<Shares.ShareRef, Shares.Share> SHARE_REVOKE = read(API_SHARE_REVOKE,
      Shares.ShareRef.CODEC, Shares.Share.CODEC);

  /** Every public operation, for whoever serves, documents or forwards them (a bridge permits these alone). */
  public static final List<Operation<?, ?>> ALL = java.util.stream.Stream.concat(java.util.stream.Stream.of(USER_LOCAL,
      USER_FIND, CONVERSATION_CREATE, CONVERSATION_LIST, CONVERSATION_GET, CONVERSATION_RENAME, CONVERSATION_DELETE,
      DATASET_ADD, DATASET_LIST, DATASET_RENAME, DATASET_REFRESH, DATASET_REMOVE, DATASET_PROFILE, QUERY_RUN,
      QUERY_EXPORT, RESULT_GET, TURN_START, TURN_CONTINUE, TURN_STOP, TURN_FOLLOW_UPS, USAGE_GET, PING, SHARE_CREATE,
      SHARE_LIST, SHARE_REVOKE), java.util.stream.Stream.concat(BoardOps.ALL.stream(), ScheduleOps.PUBLIC.stream()))
      .toList();

  /** Safe to deliver twice: it reads, or sets what it sets again, or names what it makes. */
  private static <Q, R> Operation<Q, R> read(String address, Codec<Q> request, Codec<R> reply) {
    return Operation.of(address, request, reply, WAIT_MS, Resend.IDEMPOTENT);
  }
}
