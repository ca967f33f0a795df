package io.quarry.bus;

/** JSON field names shared by requests on the bus; entity fields live in their records. */
public final class Keys {

  private Keys() {
  }

  /** A row's id, when the caller names what it creates (so that a second delivery finds it made). */
  public static final String ID = "id";
  /** Names one request, so that a second delivery of it is known as such. */
  public static final String REQUEST_ID = "request_id";
  public static final String USER_ID = "user_id";
  public static final String CONVERSATION_ID = "conversation_id";
  public static final String DATASET_ID = "dataset_id";
  public static final String COLUMN = "column";
  public static final String RESULT_ID = "result_id";
  public static final String BOARD_ID = "board_id";
  public static final String TILE_ID = "tile_id";
  public static final String MESSAGE_ID = "message_id";
  public static final String QUESTIONS = "questions";
  public static final String NODE_ID = "node_id";
  public static final String NOTICE = "notice";
  public static final String TITLE = "title";
  public static final String NAME = "name";
  public static final String URL = "url";
  public static final String SQL = "sql";
  public static final String STOP_KEY = "stop_key";
  public static final String QUERY_ID = "query_id";
  public static final String EMAIL = "email";
  public static final String PASSWORD_HASH = "password_hash";
  public static final String USABLE = "usable";
  public static final String INVITE = "invite";
  public static final String TOKEN_HASH = "token_hash";
  public static final String EXPIRES_AT = "expires_at";
  public static final String SINCE = "since";
  public static final String LIST_FROM = "list_from";
  public static final String LIMIT = "limit";
  public static final String QUERY = "query";
  /** A query's whole result to be written for download ({@link Export}), on a query request. */
  public static final String EXPORT = "export";
  public static final String GRACE_MS = "grace_ms";
  public static final String MAX_DATASETS = "max_datasets";
  /** On {@code storage.dataset.list}: the tables are for a query, which an account over its result quota may not run. */
  public static final String FOR_QUERY = "for_query";
  public static final String USER = "user";
  public static final String CODE = "code";
  /** The envelope of a list reply: every reply body is a JSON object, so a list travels under this key. */
  public static final String ITEMS = "items";
  public static final String MATCH = "match";
  public static final String MESSAGE = "message";
  public static final String DATASET = "dataset";
  public static final String RESULT = "result";
  public static final String RUN = "run";
  public static final String CREATED_AT = "created_at";
  public static final String CHECKED = "checked";
  public static final String CHANGED = "changed";
  public static final String CONTENT = "content";
  public static final String USER_MESSAGE_ID = "user_message_id";
  public static final String STOPPED = "stopped";
  public static final String HELD = "held";
  public static final String INTERRUPTED = "interrupted";
}
