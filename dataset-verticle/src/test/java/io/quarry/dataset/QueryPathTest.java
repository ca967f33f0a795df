package io.quarry.dataset;

import static io.quarry.bus.Addresses.STORAGE_DATASET_LIST;
import static io.quarry.bus.Addresses.STORAGE_RESULT_SAVE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.tuple;

import io.quarry.bus.Addresses;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.QueryTimeouts;
import io.quarry.bus.Source;
import io.quarry.bus.StorageClient;
import io.quarry.bus.WorkerClient;
import io.quarry.testing.Failures;
import io.quarry.testing.FakeStorage;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code dataset.query.run} with the dataset verticle deployed alone, between a fake storage and a fake worker:
 * the early run over the last query's tables, the run again when storage names other tables, the one retry of
 * a worker that is gone, and what a query's failure does to its datasets.
 */
@ExtendWith(VertxExtension.class)
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class QueryPathTest {

  private static final String USER = "user-1";
  private static final String SQL = "SELECT count(*) FROM sales";
  private static final String SALES_URL = "https://data.example.com/sales.parquet";
  private static final String RETURNS_URL = "https://data.example.com/returns.parquet";
  /** A worker that stays silent is given up on after this long, so a retry costs a fraction of a second. */
  private static final long WORKER_WAIT_MS = 300;
  private static final QueryTimeouts TIMEOUTS = new QueryTimeouts(200);

  private Vertx vertx;
  private FakeStorage storage;
  private FakeWorker worker;
  private DatasetClient datasets;
  private Conversation conversation;
  private Dataset sales;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    storage = FakeStorage.start(vertx).await();
    worker = FakeWorker.start(vertx).await();
    JsonObject config = new JsonObject().put("workerTimeoutMs", WORKER_WAIT_MS)
        .put("query", new JsonObject().put("timeoutMs", TIMEOUTS.queryMs()));
    vertx.deployVerticle(new DatasetVerticle(), new DeploymentOptions().setConfig(config)).await();
    datasets = new DatasetClient(vertx, TIMEOUTS);
    conversation = storage.seedConversation(USER, "Sales").await();
    sales = seed("sales", SALES_URL);
  }

  private Dataset seed(String name, String url) {
    return storage.seedDataset(conversation.id(), name, url, 10, new JsonArray()).await();
  }

  private Future<QueryResult> query() {
    return datasets.query(USER, conversation.id(), SQL);
  }

  private List<QueryRequest> workerRequests(int expected) {
    List<QueryRequest> requests = worker.requests();
    assertThat(requests).hasSize(expected);
    return requests;
  }

  @Test
  @DisplayName("the first query of a conversation goes to a worker once, over its ready and error datasets' tables "
      + "and not a loading one's")
  void firstQueryNamesReadyAndErrorTables() {
    StorageClient storageClient = new StorageClient(vertx);
    Dataset returns = seed("returns", RETURNS_URL);
    storageClient.updateDataset(USER, returns.failed(Pipeline.COULD_NOT_ACCESS)).await();
    storageClient.claimDataset(USER, conversation.id(), "https://data.example.com/loading.parquet", 5).await();

    QueryResult result = query().await();

    QueryRequest request = workerRequests(1).get(0);
    assertThat(request.sql()).isEqualTo(SQL);
    assertThat(request.tables()).containsExactly(entry("sales", SALES_URL), entry("returns", RETURNS_URL));
    assertThat(request.timeoutMs()).isEqualTo(TIMEOUTS.queryMs());
    assertThat(FakeWorker.tablesOf(result)).isEqualTo("sales,returns");
    assertThat(result.id()).isNotNull();
    assertThat(result.conversationId()).isEqualTo(conversation.id());
    assertThat(result.sql()).isEqualTo(SQL);
  }

  @Test
  @DisplayName("a worker's confirmation of a file goes with the next query over it, for any worker holding the same"
      + " version to use unasked")
  void confirmationsPassedOn() {
    Dataset versioned = new Dataset(sales.id(), sales.conversationId(), sales.url(), sales.name(), sales.rowCount(),
        sales.columnCount(), sales.schema(), sales.status(), null, 1_000L, "\"v1\"", sales.createdAt(),
        sales.updatedAt());
    new StorageClient(vertx).updateDataset(USER, versioned).await();
    JsonArray sources = new JsonArray().add(new Source("sales", SALES_URL, "\"v1\"", null, 1_000L,
        "2026-11-26T12:00:00Z").toJson());
    QueryResult over = FakeWorker.over(java.util.Map.of("sales", SALES_URL));
    worker.thenAnswer(new QueryResult(null, null, null, over.columns(), over.rows(), 1, false, 3, null, null, sources));
    query().await();
    query().await();

    List<QueryRequest> requests = workerRequests(2);
    assertThat(requests.get(0).recordedOf(SALES_URL).confirmedAt()).isNull();
    assertThat(requests.get(1).recordedOf(SALES_URL).confirmedAt()).isEqualTo("2026-11-26T12:00:00Z");
  }

  @Test
  @DisplayName("a second query runs early over the first one's tables, and only once when storage names the same "
      + "tables")
  void speculationRightRunsOnce() {
    query().await();
    QueryResult second = query().await();

    List<QueryRequest> requests = workerRequests(2);
    assertThat(requests.get(1).tables()).isEqualTo(requests.get(0).tables())
        .containsExactly(entry("sales", SALES_URL));
    assertThat(worker.sent()).isEqualTo(2);
    assertThat(storage.calls(STORAGE_DATASET_LIST).await()).isEqualTo(2);
    assertThat(FakeWorker.tablesOf(second)).isEqualTo("sales");
  }

  @Test
  @DisplayName("a dataset added between two queries drops the early answer: the query runs again over the new "
      + "tables and answers from that run")
  void speculationWrongAfterAdd() {
    query().await();
    seed("returns", RETURNS_URL);

    QueryResult second = query().await();

    List<QueryRequest> requests = workerRequests(3);
    assertThat(requests.get(1).tables()).containsExactly(entry("sales", SALES_URL));
    assertThat(requests.get(2).tables()).containsExactly(entry("sales", SALES_URL), entry("returns", RETURNS_URL));
    assertThat(FakeWorker.tablesOf(second)).isEqualTo("sales,returns");
  }

  @Test
  @DisplayName("a dataset renamed between two queries drops the early answer: the query runs again under the new "
      + "name and answers from that run")
  void speculationWrongAfterRename() {
    query().await();
    datasets.rename(USER, conversation.id(), sales.id(), "orders").await();

    QueryResult second = query().await();

    List<QueryRequest> requests = workerRequests(3);
    assertThat(requests.get(1).tables()).containsExactly(entry("sales", SALES_URL));
    assertThat(requests.get(2).tables()).containsExactly(entry("orders", SALES_URL));
    assertThat(FakeWorker.tablesOf(second)).isEqualTo("orders");
  }

  @Test
  @DisplayName("a query whose worker never answers is given up on after dataset.workerTimeoutMs and sent once more; "
      + "the second worker's answer arrives")
  void silentWorkerIsRetried() {
    worker.thenSilent();

    QueryResult result = query().await();

    assertThat(workerRequests(2)).extracting(QueryRequest::sql).containsExactly(SQL, SQL);
    assertThat(FakeWorker.tablesOf(result)).isEqualTo("sales");
    assertThat(result.id()).isNotNull();
  }

  @Test
  @DisplayName("a query whose worker cannot be reached (NO_HANDLERS) is sent once more, and the second worker's "
      + "answer arrives")
  void unreachableWorkerIsRetried() {
    worker.thenUnreachable();

    QueryResult result = query().await();

    assertThat(workerRequests(2)).extracting(QueryRequest::sql).containsExactly(SQL, SQL);
    assertThat(FakeWorker.tablesOf(result)).isEqualTo("sales");
  }

  @Test
  @DisplayName("a worker's SQL error is not retried: it reaches the caller with its code and message")
  void sqlErrorIsNotRetried() {
    String message = "Binder Error: Referenced column \"amount\" not found";
    worker.thenFail(new QuarryException(Failure.SQL, message));

    Throwable failure = Failures.failure(query());

    assertThat(Failure.classify(failure)).isEqualTo(Failure.SQL);
    assertThat(Failure.messageOf(failure)).isEqualTo(message);
    assertThat(worker.sent()).isEqualTo(1);
  }

  @Test
  @DisplayName("with no worker at all the query is sent twice, then fails UNAVAILABLE with 'No query worker "
      + "available'")
  void noWorkerIsUnavailable() {
    worker.unregister().await();

    Throwable failure = Failures.failure(query());

    assertThat(Failure.classify(failure)).isEqualTo(Failure.UNAVAILABLE);
    assertThat(Failure.messageOf(failure)).isEqualTo(WorkerClient.NO_WORKER);
    assertThat(worker.sent()).isEqualTo(2);
  }

  @Test
  @DisplayName("the answer comes once its result is stored: while storage holds the save, no answer; once it lets"
      + " go, the answer names the stored result")
  void answerWaitsForTheSave() {
    Future<Void> held = storage.holdNext(STORAGE_RESULT_SAVE);

    Future<QueryResult> answer = query();
    held.await();

    assertThat(Failures.failure(answer.timeout(300, TimeUnit.MILLISECONDS))).isInstanceOf(TimeoutException.class);
    assertThat(answer.isComplete()).as("an answer while its save is held").isFalse();
    storage.release().await();
    QueryResult result = answer.await();
    assertThat(storage.results().await()).extracting(QueryResult::id).containsExactly(result.id());
    assertThat(FakeWorker.tablesOf(result)).isEqualTo("sales");
  }

  @Test
  @DisplayName("a save that fails (the conversation deleted meanwhile) still lets the query answer with its rows")
  void failedSaveStillAnswers() {
    storage.failNext(STORAGE_RESULT_SAVE, 1, QuarryException.notFound("Conversation not found")).await();

    QueryResult result = query().await();

    assertThat(FakeWorker.tablesOf(result)).isEqualTo("sales");
    assertThat(storage.results().await()).isEmpty();
  }

  @Test
  @DisplayName("a query failing on a ready dataset's URL marks that dataset as error in storage and tells the "
      + "user's browsers with dataset_error; the other datasets stay ready")
  void networkFailureMarksTheDatasetAsError() {
    Dataset returns = seed("returns", RETURNS_URL);
    Promise<JsonObject> event = Promise.promise();
    vertx.eventBus().<JsonObject>consumer(Addresses.chatEvents(USER), msg -> event.tryComplete(msg.body()))
        .completion().await();
    worker.thenFail(QuarryException.unreachable(SALES_URL, "The server answered HTTP 404"));

    Throwable failure = Failures.failure(query());

    assertThat(Failure.classify(failure)).isEqualTo(Failure.NETWORK);
    assertThat(Failure.messageOf(failure)).isEqualTo("The dataset at " + SALES_URL + " is no longer accessible");
    JsonObject published = event.future().await();
    assertThat(published.getString("type")).isEqualTo(ChatEvents.DATASET_ERROR);
    assertThat(published.getString("conversation_id")).isEqualTo(conversation.id());
    Dataset marked = Dataset.fromJson(published.getJsonObject("dataset"));
    assertThat(marked.id()).isEqualTo(sales.id());
    assertThat(marked.status()).isEqualTo(Dataset.ERROR);
    assertThat(storage.datasets(conversation.id()).await())
        .extracting(Dataset::id, Dataset::status, Dataset::errorMessage)
        .containsExactly(tuple(sales.id(), Dataset.ERROR, Pipeline.COULD_NOT_ACCESS),
            tuple(returns.id(), Dataset.READY, null));
    assertThat(worker.sent()).isEqualTo(1);
  }
}
