package io.quarry.bus;

/**
 * Every event-bus address of Quarry, one per operation, named {@code owner.noun.verb}.
 * Nothing outside this class spells an address.
 */
public final class Addresses {

  private Addresses() {
  }

  // The public operations (ApiOps): what applications outside Quarry use. Served by every web node; each checks what
  // the browser's API checks. Every other address is internal.
  public static final String API_USER_LOCAL = "api.user.local";
  public static final String API_USER_FIND = "api.user.find";
  public static final String API_CONVERSATION_CREATE = "api.conversation.create";
  public static final String API_CONVERSATION_LIST = "api.conversation.list";
  public static final String API_CONVERSATION_GET = "api.conversation.get";
  public static final String API_CONVERSATION_RENAME = "api.conversation.rename";
  public static final String API_CONVERSATION_DELETE = "api.conversation.delete";
  public static final String API_DATASET_ADD = "api.dataset.add";
  public static final String API_DATASET_LIST = "api.dataset.list";
  public static final String API_DATASET_RENAME = "api.dataset.rename";
  public static final String API_DATASET_REFRESH = "api.dataset.refresh";
  public static final String API_DATASET_REMOVE = "api.dataset.remove";
  public static final String API_DATASET_PROFILE = "api.dataset.profile";
  public static final String API_QUERY_RUN = "api.query.run";
  public static final String API_QUERY_EXPORT = "api.query.export";
  public static final String API_RESULT_GET = "api.result.get";
  public static final String API_TURN_START = "api.turn.start";
  public static final String API_TURN_STOP = "api.turn.stop";
  public static final String API_TURN_CONTINUE = "api.turn.continue";
  public static final String API_TURN_FOLLOW_UPS = "api.turn.follow_ups";
  public static final String API_USAGE_GET = "api.usage.get";
  public static final String API_PING = "api.ping";
  public static final String API_SHARE_CREATE = "api.share.create";
  public static final String API_SHARE_LIST = "api.share.list";
  public static final String API_SHARE_REVOKE = "api.share.revoke";
  public static final String API_BOARD_CREATE = "api.board.create";
  public static final String API_BOARD_LIST = "api.board.list";
  public static final String API_BOARD_GET = "api.board.get";
  public static final String API_BOARD_RENAME = "api.board.rename";
  public static final String API_BOARD_DELETE = "api.board.delete";
  public static final String API_BOARD_PIN = "api.board.pin";
  public static final String API_BOARD_UNPIN = "api.board.unpin";
  public static final String API_BOARD_REORDER = "api.board.reorder";
  public static final String API_BOARD_RUN = "api.board.run";
  public static final String API_BOARD_RUN_ALL = "api.board.run_all";
  public static final String API_BOARD_STALE = "api.board.stale";
  /**
   * Not on the bus: where a client of the TCP bridge sends its API token ({@code {token}} → {@code {user_id, email}})
   * before anything else.
   */
  public static final String BRIDGE_LOGIN = "quarry.bridge.login";

  // storage-verticle: the only owner of SQLite.
  public static final String STORAGE_USER_LOCAL = "storage.user.local";
  public static final String STORAGE_USER_CREATE = "storage.user.create";
  public static final String STORAGE_USER_GET = "storage.user.get";
  public static final String STORAGE_USER_CREDENTIALS = "storage.user.credentials";
  public static final String STORAGE_SESSION_CREATE = "storage.session.create";
  public static final String STORAGE_SESSION_FIND = "storage.session.find";
  public static final String STORAGE_SESSION_DELETE = "storage.session.delete";
  public static final String STORAGE_INVITE_CREATE = "storage.invite.create";
  public static final String STORAGE_INVITE_CHECK = "storage.invite.check";
  public static final String STORAGE_CONVERSATION_CREATE = "storage.conversation.create";
  public static final String STORAGE_CONVERSATION_LIST = "storage.conversation.list";
  /** {@code {user_id, query}} → the user's conversations whose title or messages hold it, newest first. */
  public static final String STORAGE_CONVERSATION_SEARCH = "storage.conversation.search";
  public static final String STORAGE_CONVERSATION_GET = "storage.conversation.get";
  public static final String STORAGE_CONVERSATION_RENAME = "storage.conversation.rename";
  public static final String STORAGE_CONVERSATION_DELETE = "storage.conversation.delete";
  public static final String STORAGE_MESSAGE_APPEND = "storage.message.append";
  public static final String STORAGE_MESSAGE_LIST = "storage.message.list";
  /** Ends an answer whose llm node left the cluster: {@code {user_id, conversation_id, message_id, notice}}. */
  public static final String STORAGE_MESSAGE_INTERRUPT = "storage.message.interrupt";
  /** Opens a cut-off answer again, to be continued: {@code {user_id, conversation_id, message_id, notice}}. */
  public static final String STORAGE_MESSAGE_REOPEN = "storage.message.reopen";
  public static final String STORAGE_DATASET_CLAIM = "storage.dataset.claim";
  public static final String STORAGE_DATASET_LIST = "storage.dataset.list";
  public static final String STORAGE_DATASET_GET = "storage.dataset.get";
  public static final String STORAGE_DATASET_UPDATE = "storage.dataset.update";
  public static final String STORAGE_DATASET_RENAME = "storage.dataset.rename";
  public static final String STORAGE_DATASET_DELETE = "storage.dataset.delete";
  public static final String STORAGE_RESULT_SAVE = "storage.result.save";
  public static final String STORAGE_RESULT_GET = "storage.result.get";
  /**
   * Marks a stored result as the user's own run ({@link ResultRun}): {@code {user_id, run}}; waits for the result's
   * save, and a second delivery changes nothing.
   */
  public static final String STORAGE_RUN_SAVE = "storage.run.save";
  /** A conversation's {@link ResultRun}s, oldest first: {@code {user_id, conversation_id}} → {@code {items}}. */
  public static final String STORAGE_RUN_LIST = "storage.run.list";
  /** Boards and their tiles ({@link BoardOps}), each looked up by id and owner together. */
  public static final String STORAGE_BOARD_CREATE = "storage.board.create";
  public static final String STORAGE_BOARD_LIST = "storage.board.list";
  public static final String STORAGE_BOARD_GET = "storage.board.get";
  public static final String STORAGE_BOARD_RENAME = "storage.board.rename";
  public static final String STORAGE_BOARD_DELETE = "storage.board.delete";
  public static final String STORAGE_TILE_PIN = "storage.tile.pin";
  public static final String STORAGE_TILE_FILL = "storage.tile.fill";
  public static final String STORAGE_TILE_REMOVE = "storage.tile.remove";
  public static final String STORAGE_TILE_REORDER = "storage.tile.reorder";
  public static final String STORAGE_USAGE_RECORD = "storage.usage.record";
  public static final String STORAGE_USAGE_WINDOW = "storage.usage.window";

  // dataset-verticle: a conversation's datasets, and SQL over them.
  public static final String DATASET_ADD = "dataset.add";
  public static final String DATASET_RENAME = "dataset.rename";
  public static final String DATASET_REFRESH = "dataset.refresh";
  public static final String DATASET_REMOVE = "dataset.remove";
  public static final String DATASET_QUERY_RUN = "dataset.query.run";
  public static final String DATASET_VERSIONS_CHECK = "dataset.versions.check";
  public static final String DATASET_CHART = "dataset.chart";
  public static final String DATASET_PROFILE = "dataset.profile";

  // llm-verticle: chat turns.
  public static final String LLM_TURN_START = "llm.turn.start";
  public static final String LLM_TURN_STOP = "llm.turn.stop";
  public static final String LLM_TURN_CONTINUE = "llm.turn.continue";
  public static final String LLM_TURN_FOLLOW_UPS = "llm.turn.follow_ups";
  public static final String LLM_STATUS = "llm.status";
  public static final String LLM_USAGE_GET = "llm.usage.get";

  /**
   * Cluster-wide map of the running chat turns: conversation id → {@link TurnClaim} (as encoded JSON text). A
   * conversation has an entry exactly while one turn runs, on whichever llm node.
   */
  public static final String TURNS_MAP = "quarry.turns";

  /** Where one llm verticle (a {@link TurnClaim#owner()}) stops a turn it runs: {@code {user_id, conversation_id}}. */
  public static String llmTurnStopAt(String owner) {
    return "llm." + owner + ".turn.stop";
  }

  /** Where one llm verticle says whether it still holds a claim of {@link #TURNS_MAP}: {@code {message_id}}. */
  public static String llmTurnHeldAt(String owner) {
    return "llm." + owner + ".turn.held";
  }

  /**
   * Published inside a node's process (local only) when another member leaves the cluster, gracefully or not:
   * {@code {node_id}}, the {@link NodeInfo#id()} of the node that left.
   */
  public static final String CLUSTER_MEMBER_LEFT = "quarry.cluster.member-left";

  /**
   * Published inside a node's process (local only) once every role it runs has started, as it says so in its log:
   * what waits for it ({@link NodeStarts}) is work a node need not finish before it is ready.
   */
  public static final String NODE_STARTED = "quarry.node.started";

  /**
   * Asked inside a node's process (local only) when it starts to drain before it stops (SIGTERM): its readiness
   * answers 503 and its edge refuses new questions with {@link LlmClient#RESTARTING} ({@link NodeOps#DRAINING}).
   */
  public static final String NODE_DRAINING = "quarry.node.draining";

  /**
   * Asked inside a node's process (local only) while it drains, {@code {grace_ms}}: its llm verticle takes no new
   * turn and answers once its running turns have ended, those still running after {@code grace_ms} stopped with their
   * answers kept.
   */
  public static final String LLM_DRAIN = "llm.drain";

  /** {@code {}} → {@code {}} once the database answered: readiness. */
  public static final String STORAGE_PING = "storage.ping";
  /** API tokens of the event-bus bridge: made and revoked by an operator's command, found by the bridge. */
  public static final String STORAGE_TOKEN_CREATE = "storage.token.create";
  public static final String STORAGE_TOKEN_FIND = "storage.token.find";
  public static final String STORAGE_TOKEN_REVOKE = "storage.token.revoke";
  public static final String STORAGE_TOKEN_LIST = "storage.token.list";
  /** Share links ({@link Shares}): made, listed and revoked by their sharer; opened by their token's hash. */
  public static final String STORAGE_SHARE_CREATE = "storage.share.create";
  public static final String STORAGE_SHARE_LIST = "storage.share.list";
  public static final String STORAGE_SHARE_REVOKE = "storage.share.revoke";
  public static final String STORAGE_SHARE_OPEN = "storage.share.open";

  /** {@code {}} → {@code {ready}}, the worker processes (or workers) of the pool that answers; UNAVAILABLE when none is ready. */
  public static final String WORKER_PING = "worker.ping";

  /**
   * SQL over a given set of tables, nothing else. Its one owner on every node with the worker role is that
   * node's worker pool (worker-verticle's {@code WorkerPool}), which hands each query to a member: one of the
   * node's worker processes, or the worker verticle of its own process on a worker-only node.
   */
  public static final String WORKER_QUERY_RUN = "worker.query.run";

  /**
   * Published when the queries sent with a stop key are no longer wanted (the chat turn that ran them was stopped):
   * every worker stops those it runs, cancels the fetches no other query waits for, and refuses any that arrive
   * later. See {@link QueryStops}.
   */
  public static final String QUERIES_STOP = "quarry.queries.stop";

  /**
   * A node's own worker processes: their state, answered only inside the node's process (a local
   * consumer), so {@code /api/health} shows the workers of the node it asks.
   */
  public static final String WORKER_LOCAL_STATUS = "worker.local.status";

  /**
   * Published inside a node's process (local only) whenever one of its worker processes starts, becomes
   * ready or dies: that process's state, as in {@link #WORKER_LOCAL_STATUS}.
   */
  public static final String WORKER_LOCAL_EVENTS = "worker.local.events";

  /**
   * Where one member of a worker pool (one start of a worker process, or the worker verticle of the pool's own
   * process) takes its queries, from its pool only.
   */
  public static String localWorker(String workerId) {
    return "worker.local." + workerId + ".query.run";
  }

  /**
   * Answered inside a node's process (local) by its worker pool: each of its worker processes' metrics in
   * Prometheus's text format, {@code {workers: [{name, text}]}}, for the node's {@code /metrics}.
   */
  public static final String WORKER_LOCAL_METRICS = "worker.local.metrics";

  /** Where a supervised worker process answers its own metrics, to its node's pool: {@code {text}}. */
  public static String localWorkerMetrics(String workerId) {
    return "worker.local." + workerId + ".metrics";
  }

  /** Where a supervised worker process says it is ready, to the node that started it. */
  /** Where a worker serves one export's file ({@link Export}): a random name of its own, one per file. */
  public static String workerExport(String fileId) {
    return "worker.export." + fileId;
  }

  public static String localWorkerReady(String supervisorId) {
    return "worker.local." + supervisorId + ".ready";
  }

  /** Cluster-wide map of live nodes: node id → {@code {id, version, roles}}, each entry kept alive by its node. */
  public static final String NODES_MAP = "quarry.nodes";

  /**
   * Published by the web node where a session ends ({@code {token_hash}}), so that every web node closes the
   * WebSockets opened under it.
   */
  public static final String CHAT_SESSION_ENDED = "chat.session.ended";

  // Scheduled questions (issue 52): the public operations, then storage's.
  public static final String API_SCHEDULE_CREATE = "api.schedule.create";
  public static final String API_SCHEDULE_LIST = "api.schedule.list";
  public static final String API_SCHEDULE_PAUSE = "api.schedule.pause";
  public static final String API_SCHEDULE_RESUME = "api.schedule.resume";
  public static final String API_SCHEDULE_DELETE = "api.schedule.delete";
  public static final String API_SCHEDULE_RUNS = "api.schedule.runs";
  public static final String API_SCHEDULE_RUN_NOW = "api.schedule.run-now";
  public static final String STORAGE_SCHEDULE_CREATE = "storage.schedule.create";
  public static final String STORAGE_SCHEDULE_LIST = "storage.schedule.list";
  public static final String STORAGE_SCHEDULE_GET = "storage.schedule.get";
  public static final String STORAGE_SCHEDULE_UPDATE = "storage.schedule.update";
  public static final String STORAGE_SCHEDULE_DELETE = "storage.schedule.delete";
  public static final String STORAGE_SCHEDULE_RUNS = "storage.schedule.runs";
  public static final String STORAGE_SCHEDULE_CLAIM = "storage.schedule.claim";
  public static final String STORAGE_SCHEDULE_RENEW = "storage.schedule.renew";
  public static final String STORAGE_SCHEDULE_RELEASE = "storage.schedule.release";
  public static final String STORAGE_SCHEDULE_RUN_START = "storage.schedule.run.start";
  public static final String STORAGE_SCHEDULE_RUN_FINISH = "storage.schedule.run.finish";
  public static final String STORAGE_SCHEDULE_RUN_DELIVERED = "storage.schedule.run.delivered";
  public static final String STORAGE_SCHEDULE_RETRIES_CLAIM = "storage.schedule.retries.claim";
  /** This node's scheduler: one tick at the instant the request names (the periodic timer's, or a test's clock). */
  public static final String SCHEDULE_TICK = "quarry.schedule.tick";

  /** Prefix of the per-user browser event stream; see {@link #chatEvents(String)}. */
  public static final String CHAT_EVENTS_PREFIX = "chat.events.";

  /** Events for one user's browsers, published by any verticle, forwarded by every chat-verticle holding that user's socket. */
  public static String chatEvents(String userId) {
    return CHAT_EVENTS_PREFIX + userId;
  }
}
