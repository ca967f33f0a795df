package io.quarry.chat;

import io.quarry.bus.ApiOps;
import io.quarry.bus.ApiOps.CreateConversation;
import io.quarry.bus.ApiOps.ExportQuery;
import io.quarry.bus.ApiOps.Query;
import io.quarry.bus.BoardOps;
import io.quarry.bus.Bus;
import io.quarry.bus.Conversation;
import io.quarry.bus.Credentials;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmClient;
import io.quarry.bus.NodeInfo;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.quarry.bus.StorageOps;
import io.quarry.bus.User;
import io.vertx.core.Future;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The public operations ({@link ApiOps}), the bus's counterpart of the browser's API: the same checks, limits and
 * messages, for the user a request names. Served on every web node, so that applications find them wherever the
 * browser's API runs.
 */
final class BusApi {

  private final Bus bus;
  private final StorageClient storage;
  private final DatasetClient datasets;
  private final LlmClient llm;
  private final String authMode;
  private final ChatSettings.Exports exports;
  private final AtomicBoolean draining;
  private final WriteLimit writes;
  private final NodeInfo node;
  private final Sharing sharing;
  private final Boards boards;
  private final FollowUpQuestions followUps;

  /** {@code writes}: the users' budgets of changes, shared with the browser's API; {@code node}: what a ping says. */
  BusApi(Bus bus, StorageClient storage, DatasetClient datasets, LlmClient llm, String authMode,
      ChatSettings.Exports exports, AtomicBoolean draining, WriteLimit writes, NodeInfo node, Sharing sharing,
      Boards boards, FollowUpQuestions followUps) {
    this.bus = bus;
    this.storage = storage;
    this.datasets = datasets;
    this.llm = llm;
    this.authMode = authMode;
    this.exports = exports;
    this.draining = draining;
    this.writes = writes;
    this.node = node;
    this.sharing = sharing;
    this.boards = boards;
    this.followUps = followUps;
  }

  /** Changes draw on the user's budget of changes, as the browser's do; reads and SQL do not. */
  void serve() {
    bus.serve(ApiOps.USER_LOCAL, none -> localUser());
    bus.serve(ApiOps.USER_FIND, r -> storage.credentials(r.email()).map(Credentials::user));
    bus.serve(ApiOps.CONVERSATION_CREATE, r -> writes.change(r.userId(), () -> createConversation(r)));
    bus.serve(ApiOps.CONVERSATION_LIST, r -> storage.conversations(r.userId()));
    bus.serve(ApiOps.CONVERSATION_GET, r -> ConversationApi.read(storage, r.userId(), r.conversationId()));
    bus.serve(ApiOps.CONVERSATION_RENAME, r -> writes.change(r.userId(), () -> storage.renameConversation(r.userId(),
        r.conversationId(), Bodies.required("title", r.title(), ApiOps.MAX_TITLE).strip())));
    bus.serve(ApiOps.CONVERSATION_DELETE, r -> writes.change(r.userId(),
        () -> storage.deleteConversation(r.userId(), r.conversationId())));
    bus.serve(ApiOps.DATASET_ADD, r -> writes.change(r.userId(),
        () -> datasets.add(r.userId(), r.conversationId(), r.url() == null ? "" : r.url())));
    bus.serve(ApiOps.DATASET_LIST, r -> storage.conversation(r.userId(), r.conversationId())
        .compose(mine -> storage.datasets(r.userId(), r.conversationId())));
    bus.serve(ApiOps.DATASET_RENAME, r -> writes.change(r.userId(), () -> datasets.rename(r.userId(),
        r.conversationId(), r.datasetId(), Bodies.required("name", r.name(), ApiOps.MAX_NAME))));
    bus.serve(ApiOps.DATASET_REFRESH, r -> writes.change(r.userId(),
        () -> datasets.refresh(r.userId(), r.conversationId(), r.datasetId())));
    bus.serve(ApiOps.DATASET_REMOVE, r -> writes.change(r.userId(),
        () -> datasets.remove(r.userId(), r.conversationId(), r.datasetId())));
    bus.serve(ApiOps.DATASET_PROFILE, r -> datasets.profile(r.userId(), r.conversationId(), r.datasetId(),
        r.column(), ""));
    bus.serve(ApiOps.QUERY_RUN, this::query);
    bus.serve(ApiOps.QUERY_EXPORT, this::export);
    bus.serve(ApiOps.RESULT_GET, r -> storage.result(r.userId(), r.resultId()));
    bus.serve(ApiOps.TURN_START, r -> draining.get() ? refused(Failure.UNAVAILABLE, LlmClient.RESTARTING)
        : writes.change(r.userId(), () -> llm.start(r.userId(), r.conversationId(), r.content())));
    bus.serve(ApiOps.TURN_CONTINUE, r -> draining.get() ? refused(Failure.UNAVAILABLE, LlmClient.RESTARTING)
        : writes.change(r.userId(), () -> llm.continueTurn(r.userId(), r.conversationId(), r.messageId())));
    bus.serve(ApiOps.TURN_FOLLOW_UPS, r -> writes.change(r.userId(),
        () -> followUps.ask(r.userId(), r.conversationId(), r.messageId())));
    bus.serve(ApiOps.TURN_STOP, r -> writes.change(r.userId(), () -> llm.stop(r.userId(), r.conversationId())));
    bus.serve(ApiOps.USAGE_GET, r -> llm.usage(r.userId()));
    bus.serve(ApiOps.PING, none -> Future.succeededFuture(node));
    bus.serve(ApiOps.SHARE_CREATE, r -> writes.change(r.userId(), () -> sharing.create(r)));
    bus.serve(ApiOps.SHARE_LIST, r -> sharing.list(r.userId()));
    bus.serve(ApiOps.SHARE_REVOKE, r -> writes.change(r.userId(), () -> sharing.revoke(r.userId(), r.id())));
    serveBoards();
  }

  /** As {@code /api/boards}: changes draw on the budget of changes; reads, the staleness check and re-runs do not. */
  private void serveBoards() {
    bus.serve(BoardOps.CREATE, r -> writes.change(r.userId(), () -> storage.user(r.userId())
        .compose(user -> boards.create(user.id(), r.id() == null ? null : uuid(r.id()), r.title()))));
    bus.serve(BoardOps.LIST, r -> boards.list(r.userId()));
    bus.serve(BoardOps.GET, r -> boards.read(r.userId(), r.boardId()));
    bus.serve(BoardOps.RENAME, r -> writes.change(r.userId(), () -> boards.rename(r.userId(), r.boardId(),
        r.title())));
    bus.serve(BoardOps.DELETE, r -> writes.change(r.userId(), () -> boards.delete(r.userId(), r.boardId())));
    bus.serve(BoardOps.PIN, r -> writes.change(r.userId(), () -> boards.pin(r)));
    bus.serve(BoardOps.UNPIN, r -> writes.change(r.userId(), () -> boards.unpin(r.userId(), r.boardId(),
        r.tileId())));
    bus.serve(BoardOps.REORDER, r -> writes.change(r.userId(), () -> boards.reorder(r.userId(), r.boardId(),
        r.tileIds())));
    bus.serve(BoardOps.RUN, r -> boards.run(r.userId(), r.boardId(), r.tileId()));
    bus.serve(BoardOps.RUN_ALL, r -> boards.runAll(r.userId(), r.boardId()));
    bus.serve(BoardOps.STALE, r -> boards.stale(r.userId(), r.boardId()));
  }

  private Future<User> localUser() {
    return Auth.LOCAL.equals(authMode) ? storage.localUser()
        : refused(Failure.NOT_FOUND, "This server's users sign in with passwords: there is no local user. Find a user"
            + " by email instead");
  }

  /** Only for a user who exists: a conversation of nobody's would be nobody's to read. */
  private Future<Conversation> createConversation(CreateConversation r) {
    String title = Bodies.atMost("title", r.title(), ApiOps.MAX_TITLE);
    String chosen = title == null || title.isBlank() ? ApiOps.DEFAULT_TITLE : title.strip();
    String id = r.id() == null ? UUID.randomUUID().toString() : uuid(r.id());
    return storage.user(r.userId())
        .compose(user -> StorageOps.CONVERSATION_CREATE.call(bus, new StorageOps.NewConversation(user.id(), id,
            chosen)));
  }

  private Future<QueryResult> query(Query r) {
    return datasets.query(r.userId(), r.conversationId(), Bodies.required("sql", r.sql(), ApiOps.MAX_SQL));
  }

  /** Within the limits of the browser's downloads ({@code export.maxRows}, {@code export.maxBytes}). */
  private Future<QueryResult> export(ExportQuery r) {
    String sql = Bodies.required("sql", r.sql(), ApiOps.MAX_SQL);
    if (r.format() == null || !Export.FORMATS.contains(r.format())) {
      throw QuarryException.badRequest("Field 'format' must be csv, parquet or json");
    }
    // The file carries the sources its query read, so that whoever holds only the file knows what data it holds.
    return datasets.export(r.userId(), r.conversationId(), sql,
        new Export(r.format(), exports.maxRows(), exports.maxBytes()), "")
        .map(result -> result.withExport(Export.File.of(result).toJson()));
  }

  private static String uuid(String id) {
    try {
      return UUID.fromString(id).toString();
    } catch (IllegalArgumentException e) {
      throw QuarryException.badRequest("Field 'id' must be a UUID");
    }
  }

  private static <T> Future<T> refused(Failure failure, String message) {
    return Future.failedFuture(new QuarryException(failure, message));
  }
}
