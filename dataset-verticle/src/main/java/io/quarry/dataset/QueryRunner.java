package io.quarry.dataset;

import io.quarry.bus.BusFailure;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetOps.RunQuery;
import io.quarry.bus.Export;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Timestamps;
import io.quarry.bus.WorkerClient;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SQL over a conversation's datasets: binds each dataset's name to its URL, has a worker run the
 * statement, and has the result stored. A dataset whose URL fails during the query goes to error state.
 */
final class QueryRunner {

  private static final Logger log = LoggerFactory.getLogger(QueryRunner.class);

  private final EventBus bus;
  private final StorageClient storage;
  private final WorkerClient worker;
  private final long timeoutMs;
  private final long workerTimeoutMs;
  private final int maxSqlChars;
  private final GuessedTables guessed = new GuessedTables();
  private final UserLanes lanes;
  private final NewVersions versions;
  private final Confirmations confirmations = new Confirmations();

  QueryRunner(EventBus bus, StorageClient storage, WorkerClient worker, NewVersions versions,
      DatasetSettings settings) {
    this.bus = bus;
    this.lanes = new UserLanes(settings.maxQueriesPerUser(), settings.maxWaitingQueriesPerUser());
    this.versions = versions;
    this.storage = storage;
    this.worker = worker;
    this.timeoutMs = settings.timeouts().queryMs();
    this.workerTimeoutMs = settings.workerWaitMs();
    this.maxSqlChars = settings.maxSqlChars();
  }

  Future<QueryResult> run(RunQuery query) {
    String userId = query.userId();
    String conversationId = query.conversationId();
    String sql = query.sql();
    if (sql.length() > maxSqlChars) {
      throw QuarryException.badRequest("Field 'sql' must be at most " + String.format("%,d", maxSqlChars) + " characters");
    }
    String stopKey = query.stopKey();
    Export export = query.export();
    return lanes.submit(userId, query.queryId(), () -> export == null ? runNow(userId, conversationId, sql, stopKey)
        : exportNow(userId, conversationId, sql, stopKey, export));
  }

  /** Rows for the caller alone (a chart's), not stored: in the user's lane like any query. */
  Future<QueryResult> unstored(String userId, String conversationId, String sql, String stopKey) {
    return lanes.submit(userId, UUID.randomUUID().toString(), () -> answer(userId, conversationId, sql, stopKey, null));
  }

  /**
   * The footer statistics of {@code table}'s copy ({@link QueryRequest#statistics}), in the user's lane like any
   * query: {@code sql} reads the table and no column, so the worker makes its copy current and moves no column.
   */
  Future<QueryResult> statistics(String userId, String conversationId, String table, String sql, String stopKey) {
    return lanes.submit(userId, UUID.randomUUID().toString(),
        () -> answer(userId, conversationId, sql, stopKey, null, table));
  }

  private Future<QueryResult> runNow(String userId, String conversationId, String sql, String stopKey) {
    return answer(userId, conversationId, sql, stopKey, null)
        .compose(result -> store(userId, result.withIdentity(null, conversationId, sql)));
  }

  /** The whole result written by a worker for download: not stored, its reply says where to read it. */
  private Future<QueryResult> exportNow(String userId, String conversationId, String sql, String stopKey,
      Export export) {
    return answer(userId, conversationId, sql, stopKey, export);
  }

  /** A worker's answer over the conversation's datasets; {@code export} null for rows in the reply. */
  private Future<QueryResult> answer(String userId, String conversationId, String sql, String stopKey, Export export) {
    return answer(userId, conversationId, sql, stopKey, export, "");
  }

  private Future<QueryResult> answer(String userId, String conversationId, String sql, String stopKey, Export export,
      String statistics) {
    return guessed.run(userId, conversationId, () -> storage.datasetsForQuery(userId, conversationId),
            tables -> runOnAWorker(new QueryRequest(sql, tables.names(), timeoutMs, userId, conversationId, stopKey,
                export, confirmations.confirm(tables.recorded()), List.of(), tables.formats(), statistics)))
        .compose(confirmed -> confirmed.answer().recover(e -> markUnreachable(userId, confirmed.datasets(), e))
            .onSuccess(result -> {
              confirmations.learn(result.sourceList());
              versions.note(userId, confirmed.datasets(), result.sourceList());
            }));
  }

  /**
   * The answer waits for its result's save: an id handed out before the row is written would name nothing if this
   * node died in between (the save never sent), and the model, the message and its charts would point at it. A save
   * that fails (the conversation was deleted meanwhile) is logged and the answer goes on, as its rows are still true.
   */
  private Future<QueryResult> store(String userId, QueryResult result) {
    QueryResult named = result.capped().stored(UUID.randomUUID().toString(), Timestamps.now());
    return storage.saveResult(userId, named)
        .recover(e -> {
          log.warn("Result {} of conversation {} was not stored: {}", named.id(), named.conversationId(),
              e.getMessage());
          return Future.succeededFuture(named);
        });
  }

  /**
   * A read query is idempotent: if its worker cannot be reached or never answers (its node died), it is
   * sent once more, and round-robin delivery takes it to another worker.
   */
  private Future<QueryResult> runOnAWorker(QueryRequest request) {
    return worker.run(request, workerTimeoutMs)
        .recover(e -> unreachable(e) ? worker.run(request, workerTimeoutMs) : Future.failedFuture(e))
        .recover(e -> Future.failedFuture(e instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS
            ? new QuarryException(Failure.UNAVAILABLE, WorkerClient.NO_WORKER) : e));
  }

  private static boolean unreachable(Throwable e) {
    return e instanceof ReplyException re && re.failureType() != ReplyFailure.RECIPIENT_FAILURE;
  }

  private Future<QueryResult> markUnreachable(String userId, List<Dataset> datasets, Throwable failure) {
    Optional<String> failedUrl = Failure.classify(failure) == Failure.NETWORK
        ? BusFailure.of(failure).url() : Optional.empty();
    if (failedUrl.isPresent()) {
      datasets.stream()
          .filter(d -> Dataset.READY.equals(d.status()) && failedUrl.get().equals(d.url()))
          .forEach(d -> storage.updateDataset(userId, d.failed(Pipeline.COULD_NOT_ACCESS))
              .onSuccess(stored -> ChatEvents.publish(bus, userId, ChatEvents.dataset(ChatEvents.DATASET_ERROR, stored))));
    }
    return Future.failedFuture(failure);
  }
}
