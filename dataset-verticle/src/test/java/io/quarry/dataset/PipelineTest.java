package io.quarry.dataset;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.DataFormat;
import io.quarry.bus.Failure;
import io.quarry.bus.FileEnd;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryRequest;
import io.quarry.bus.QueryResult;
import io.quarry.bus.RowsJson;
import io.quarry.bus.WorkerClient;
import io.quarry.bus.net.AddressPolicy;
import io.quarry.bus.net.OutboundHttp;
import io.quarry.testing.ParquetFixtures;
import io.quarry.testing.ParquetServer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The seed's validation pipeline, steps 2–4, against a real HTTP server on loopback. */
@ExtendWith(VertxExtension.class)
class PipelineTest {

  static final int TAIL = 64 * 1024;
  /** The limit a test about time puts on the one step it is about: far under its origin's delay of 0.9 or 2 s. */
  static final long SHORT_MS = 300;
  /**
   * Every other limit: far over what a step takes on a loaded machine, where a JVM's first test can spend seconds
   * warming up (300 ms on every step failed a CI run).
   */
  static final long ROOMY_MS = 30_000;
  static final Pipeline.Settings ROOMY = limits(ROOMY_MS, ROOMY_MS, ROOMY_MS, TAIL);
  /** Steps 2 (the tail, or HEAD), 3 (the magic number) and 4 (the schema) with only one of them short. */
  static final Pipeline.Settings SHORT_TAIL = limits(SHORT_MS, ROOMY_MS, ROOMY_MS, TAIL);
  static final Pipeline.Settings SHORT_MAGIC = limits(ROOMY_MS, SHORT_MS, ROOMY_MS, TAIL);
  static final Pipeline.Settings SHORT_SCHEMA = limits(ROOMY_MS, ROOMY_MS, SHORT_MS, TAIL);

  @TempDir
  Path dir;

  Vertx vertx;
  ParquetServer server;
  byte[] people;
  FakeWorker worker;

  @BeforeEach
  void start(Vertx vertx) {
    this.vertx = vertx;
    server = ParquetServer.start(vertx);
    people = ParquetFixtures.people(dir);
    worker = FakeWorker.start(vertx).await();
  }

  /** A pipeline that may fetch from this machine's loopback origins, as every test's but the address policy's. */
  private Pipeline pipeline(Pipeline.Settings settings) {
    return pipeline(settings, AddressPolicy.of(true, ""));
  }

  private Pipeline pipeline(Pipeline.Settings settings, AddressPolicy policy) {
    return new Pipeline(vertx, new OutboundHttp(vertx, policy, 2_000, "", 5), settings,
        new EngineSchema(new WorkerClient(vertx)));
  }

  private static Pipeline.Settings limits(long headMs, long magicMs, long schemaMs, int tailBytes) {
    return new Pipeline.Settings(headMs, magicMs, schemaMs, 2L << 30, 4096, 1 << 20, tailBytes);
  }

  private Pipeline.Loaded load(String url) {
    return load(pipeline(ROOMY), url);
  }

  private Pipeline.Loaded load(Pipeline pipeline, String url) {
    return onContext(() -> pipeline.run(URI.create(url), "")).await();
  }

  private QuarryException failure(Pipeline pipeline, String url) {
    try {
      load(pipeline, url);
    } catch (QuarryException e) {
      assertThat(e.failure()).isEqualTo(Failure.BAD_REQUEST);
      return e;
    }
    throw new AssertionError("expected the pipeline to fail for " + url);
  }

  private QuarryException failure(String url) {
    return failure(pipeline(ROOMY), url);
  }

  /** The pipeline's state belongs to one event loop, as it does inside the verticle. */
  private <T> Future<T> onContext(Supplier<Future<T>> work) {
    Context context = vertx.getOrCreateContext();
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(promise));
    return promise.future();
  }

  @Test
  @DisplayName("a valid file yields the engine's columns with their friendly types, its row count and size; the"
      + " engine was asked to open exactly that URL, for its columns, reading no rows")
  void schema() {
    server.route("/people.parquet").content(people);
    worker.thenAnswer(described(Map.of("id", "BIGINT", "name", "VARCHAR", "score", "DECIMAL(10,2)", "shape",
        "GEOMETRY('OGC:CRS84')", "extra", "VARIANT")));
    Pipeline.Loaded loaded = load(server.url("/people.parquet"));
    assertThat(loaded.rowCount()).isEqualTo(100);
    assertThat(loaded.size()).isEqualTo(people.length);
    assertThat(loaded.etag()).startsWith("\"");
    assertThat(loaded.columns().stream().map(c -> ((JsonObject) c).getString("name") + ":"
        + ((JsonObject) c).getString("type") + ":" + ((JsonObject) c).getString("friendly_type")))
        .containsExactlyInAnyOrder("id:BIGINT:Integer", "name:VARCHAR:Text", "score:DECIMAL(10,2):Decimal",
            "shape:GEOMETRY('OGC:CRS84'):Geometry", "extra:VARIANT:Variant");
    QueryRequest asked = worker.requests().get(0);
    assertThat(asked.tables()).containsExactly(Map.entry("dataset", server.url("/people.parquet")));
    assertThat(asked.sql()).isEqualTo("SELECT column_name, column_type FROM (DESCRIBE dataset)");
    assertThat(asked.columnsOf()).as("the table whose columns answer, from its footer").isEqualTo("dataset");
  }

  @Test
  @DisplayName("a worker of an earlier version, which runs the statement and cuts its answer at 1,000 rows, is asked"
      + " for the rest a page at a time: a file 1,200 columns wide keeps all of them, in order")
  void earlierWorkerPaged() {
    server.route("/people.parquet").content(people);
    JsonArray wide = new JsonArray();
    for (int i = 0; i < 1_200; i++) {
      wide.add(new JsonArray().add("c" + i).add("BIGINT"));
    }
    JsonArray header = new JsonArray().add(new JsonObject().put("name", "column_name").put("type", "VARCHAR"))
        .add(new JsonObject().put("name", "column_type").put("type", "VARCHAR"));
    worker.thenAnswer(new QueryResult(null, null, null, header, RowsJson.of(new JsonArray(wide.getList()
            .subList(0, 1_000))), 1_200, true, 1, null, null))
        .thenAnswer(new QueryResult(null, null, null, header, RowsJson.of(new JsonArray(wide.getList()
            .subList(1_000, 1_200))), 200, false, 1, null, null));

    Pipeline.Loaded loaded = load(server.url("/people.parquet"));

    assertThat(loaded.columns().stream().map(c -> ((JsonObject) c).getString("name")))
        .containsExactlyElementsOf(wide.stream().map(r -> ((JsonArray) r).getString(0)).toList());
    assertThat(worker.requests()).hasSize(2);
    assertThat(worker.requests().get(1).sql())
        .isEqualTo("SELECT column_name, column_type FROM (DESCRIBE dataset) LIMIT 1000 OFFSET 1000");
    assertThat(worker.requests().get(1).columnsOf()).isEmpty();
  }

  @Test
  @DisplayName("a file whose footer decodes but which the engine cannot open is refused with 'Could not read parquet"
      + " schema' and the engine's reason")
  void engineRefuses() {
    server.route("/odd.parquet").content(people);
    worker.thenFail(new QuarryException(Failure.BAD_REQUEST, "The query engine cannot read table dataset (x): Invalid"
        + " Error: don't know what type", "Invalid Error: don't know what type"));
    QuarryException e = failure(server.url("/odd.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).isEqualTo("Invalid Error: don't know what type");
  }

  @Test
  @DisplayName("with no worker to open the file, the add says so (503) instead of calling the file unreadable")
  void noWorker() {
    server.route("/people.parquet").content(people);
    worker.unregister().await();
    QuarryException e = onContext(() -> pipeline(ROOMY).run(
        URI.create(server.url("/people.parquet")), "")).<QuarryException>transform(r ->
        Future.succeededFuture((QuarryException) r.cause())).await();
    assertThat(e.failure()).isEqualTo(Failure.UNAVAILABLE);
    assertThat(e.getMessage()).isEqualTo(WorkerClient.NO_WORKER);
  }

  @Test
  @DisplayName("a pool that answers the engine check after the schema limit, as one whose first worker was still"
      + " starting does (its limit counts from that start), is heard: the file is added, not called unreadable")
  void workerStartingPastTheLimit() {
    server.route("/people.parquet").content(people);
    worker.thenAnswerAfter(900, described(Map.of("id", "BIGINT")));
    Pipeline.Loaded loaded = load(pipeline(SHORT_SCHEMA), server.url("/people.parquet"));
    assertThat(loaded.rowCount()).isEqualTo(100);
    assertThat(loaded.columns().getJsonObject(0).getString("name")).isEqualTo("id");
    assertThat(worker.requests().get(0).timeoutMs()).as("what was left of the limit").isBetween(1L, 300L);
  }

  @Test
  @DisplayName("the same for a CSV file: its rows are counted within what the worker's first look left of the limit")
  void textWorkerStartingPastTheLimit() {
    server.route("/export").content("id\n1\n2\n".getBytes());
    worker.thenAnswerAfter(900, rows(new JsonArray().add("id").add("BIGINT"))).thenAnswer(rows(new JsonArray().add(2)));
    Pipeline.Loaded loaded = load(pipeline(SHORT_SCHEMA), server.url("/export"));
    assertThat(loaded.rowCount()).isEqualTo(2);
    assertThat(worker.requests().stream().map(QueryRequest::timeoutMs)).containsExactly(300L, 299L);
  }

  @Test
  @DisplayName("the worker's limit passing while it reads the file is the file's: 'Could not read parquet schema', no"
      + " answer within the schema limit (the whole step's, though the footer took some of it)")
  void workerTimedOut() {
    // A tail too short for the footer: the range that brings the rest takes 100 ms of the step's 300.
    server.route("/people.parquet").content(people).delayOtherRanges(100);
    Pipeline smallTail = pipeline(limits(ROOMY_MS, ROOMY_MS, SHORT_MS, 64));
    worker.thenFail(new QuarryException(Failure.TIMEOUT, WorkerClient.timedOut(200, "")));
    QuarryException e = failure(smallTail, server.url("/people.parquet"));
    assertThat(worker.requests().get(0).timeoutMs()).as("what the footer left").isLessThan(250L);
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).isEqualTo("No answer within 0.3 s");
  }

  /** What a worker answers to the engine check (DESCRIBE) of a file with these columns: a row for each. */
  private static QueryResult described(Map<String, String> columns) {
    JsonArray rows = new JsonArray();
    columns.forEach((name, type) -> rows.add(new JsonArray().add(name).add(type)));
    JsonArray header = new JsonArray().add(new JsonObject().put("name", "column_name").put("type", "VARCHAR"))
        .add(new JsonObject().put("name", "column_type").put("type", "VARCHAR"));
    return new QueryResult(null, null, null, header, RowsJson.of(rows), rows.size(), false, 1, null, null);
  }

  @Test
  @DisplayName("schema extraction reads only the footer: a 6 MB file moves a few kilobytes")
  void footerOnly() {
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT i, md5(i::VARCHAR) AS h FROM range(200000) t(i)");
    assertThat(big.length).isGreaterThan(5_000_000);
    ParquetServer.Route route = server.route("/big.parquet").content(big);
    assertThat(load(server.url("/big.parquet")).rowCount()).isEqualTo(200_000);
    assertThat(route.bodyBytes()).isLessThanOrEqualTo(TAIL + 4);
    assertThat(route.fullDownloads()).isZero();
  }

  @Test
  @DisplayName("a 404 fails with 'Could not access URL' and the status in the details")
  void notFound() {
    server.route("/gone.parquet").status(404);
    QuarryException e = failure(server.url("/gone.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not access URL");
    assertThat(e.details()).isEqualTo("The server answered HTTP 404 Not Found");
  }

  @Test
  @DisplayName("a signed link its origin refuses as expired (S3's 403 'Request has expired', Azure's 'Signed expiry"
      + " time') says so; a signed link refused for another reason, and an unsigned one, cannot be accessed")
  void expiredSignedLink() {
    server.route("/s3.parquet").status(403, "<Error><Code>AccessDenied</Code><Message>Request has expired</Message>"
        + "</Error>");
    QuarryException e = failure(server.url("/s3.parquet") + "?X-Amz-Signature=abc&X-Amz-Credential=c");
    assertThat(e.getMessage()).isEqualTo("The link has expired; paste a fresh one");
    assertThat(e.details()).isEqualTo("The server answered HTTP 403 Forbidden");
    server.route("/azure.parquet").status(403, "<Error><Code>AuthenticationFailed</Code><AuthenticationErrorDetail>"
        + "Signed expiry time [Mon, 01 Jan 2024] must be after signed start time</AuthenticationErrorDetail></Error>");
    assertThat(failure(server.url("/azure.parquet") + "?sv=2022-11-02&sig=abc").getMessage())
        .isEqualTo("The link has expired; paste a fresh one");
    server.route("/denied.parquet").status(403, "<Error><Code>AccessDenied</Code></Error>");
    assertThat(failure(server.url("/denied.parquet") + "?X-Amz-Signature=abc").getMessage())
        .isEqualTo("Could not access URL");
    server.route("/plain.parquet").status(403, "Request has expired");
    assertThat(failure(server.url("/plain.parquet")).getMessage()).isEqualTo("Could not access URL");
  }

  @Test
  @DisplayName("adding a file costs one round trip: the tail (size, version, footer) and the magic number are asked"
      + " at once, before either is answered, on connections kept for the next add")
  void oneRoundTrip() {
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT i, md5(i::VARCHAR) AS h FROM range(200000) t(i)");
    ParquetServer.Route route = server.route("/big.parquet").content(big);
    ParquetServer.Held tails = route.holdTails();
    ParquetServer.Held magic = route.holdRangeRequests();
    Pipeline pipeline = pipeline(ROOMY);
    Future<Pipeline.Loaded> loading = onContext(() -> pipeline.run(URI.create(server.url("/big.parquet")), ""));
    tails.arrived().await();
    magic.arrived().await();
    tails.release();
    magic.release();
    assertThat(loading.await().rowCount()).isEqualTo(200_000);
    assertThat(route.requests()).isEqualTo(2);
    assertThat(route.rangeBytes()).as("explicit ranges: the magic number only").isEqualTo(4);
    FileEnd end = worker.requests().get(0).endOf(server.url("/big.parquet"));
    assertThat(end.from()).as("the engine's check brings the tail, for its worker to start from")
        .isEqualTo(big.length - TAIL);
    assertThat(end.size()).isEqualTo(big.length);
    assertThat(end.bytes()).isEqualTo(Arrays.copyOfRange(big, big.length - TAIL, big.length));
    assertThat(end.etag()).isNotNull();

    long connections = server.connections();
    assertThat(load(pipeline, server.url("/big.parquet")).rowCount()).isEqualTo(200_000);
    assertThat(server.connections()).as("a second add reuses the connections of the first").isEqualTo(connections);
  }

  @Test
  @DisplayName("a footer longer than the tail costs one more range, for exactly the rest of it")
  void footerLongerThanTail() {
    int footer = footerLength(people);
    ParquetServer.Route route = server.route("/people.parquet").content(people);
    Pipeline smallTail = pipeline(limits(ROOMY_MS, ROOMY_MS, ROOMY_MS, 64));
    assertThat(footer + 8).isGreaterThan(64);
    assertThat(load(smallTail, server.url("/people.parquet")).rowCount()).isEqualTo(100);
    assertThat(route.requests()).isEqualTo(3);
    assertThat(route.rangeBytes()).isEqualTo(4 + (footer + 8 - 64));
    FileEnd end = worker.requests().get(0).endOf(server.url("/people.parquet"));
    assertThat(end.from()).as("from the footer's start").isEqualTo(people.length - footer - 8);
    assertThat(end.bytes()).isEqualTo(Arrays.copyOfRange(people, people.length - footer - 8, people.length));
  }

  @Test
  @DisplayName("servers that cannot serve a suffix range take the classic path: HEAD, magic number, explicit ranges")
  void classicPath() {
    ParquetServer.Route empty = server.route("/empty.parquet").content(new byte[0]);
    QuarryException e = failure(server.url("/empty.parquet"));
    assertThat(e.getMessage()).isEqualTo("Not a valid parquet file");
    assertThat(empty.requests()).as("tail, magic number, HEAD").isEqualTo(3);

    byte[] tiny = ParquetFixtures.write(dir.resolve("tiny.parquet"), "SELECT 1 AS x");
    ParquetServer.Route rangeless = server.route("/rangeless.parquet").content(tiny).refuseHead().ignoreRange();
    assertThat(load(server.url("/rangeless.parquet")).rowCount()).isEqualTo(1);
    assertThat(rangeless.fullDownloads()).as("tail, magic number, the file").isEqualTo(3);
    assertThat(worker.requests().get(worker.requests().size() - 1).ends()).as("nothing for the worker to start from")
        .isEmpty();
  }

  @Test
  @DisplayName("a server that refuses HEAD still loads: adding asks no HEAD")
  void headRefused() {
    server.route("/nohead.parquet").content(people).refuseHead();
    assertThat(load(server.url("/nohead.parquet")).rowCount()).isEqualTo(100);
  }

  @Test
  @DisplayName("a server that ignores Range: a small file is read whole, a larger one refused without downloading it")
  void noRangeSupport() {
    byte[] tiny = ParquetFixtures.write(dir.resolve("tiny.parquet"), "SELECT 1 AS x");
    assertThat(tiny.length).isLessThan(4096);
    server.route("/tiny.parquet").content(tiny).ignoreRange();
    assertThat(load(server.url("/tiny.parquet")).rowCount()).isEqualTo(1);

    // Large enough that loopback socket buffers cannot hide whether the transfer was cut short.
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT i, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS h FROM range(1200000) t(i)");
    assertThat(big.length).isGreaterThan(40_000_000);
    ParquetServer.Route route = server.route("/big.parquet").content(big).ignoreRange();
    QuarryException e = failure(server.url("/big.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).contains("ignores HTTP Range requests");
    assertThat(route.bodyBytes()).isLessThan(big.length / 4);
  }

  @Test
  @DisplayName("a first answer (the tail) slower than its limit fails with 'Could not access URL'")
  void slowTail() {
    server.route("/slow.parquet").content(people).delayTail(2_000);
    QuarryException e = failure(pipeline(SHORT_TAIL), server.url("/slow.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not access URL");
    assertThat(e.details()).isEqualTo("No answer within 0.3 s");
  }

  @Test
  @DisplayName("a magic-number read slower than its limit fails with 'Not a valid parquet file'")
  void slowMagic() {
    server.route("/slow.parquet").content(people).delayFirstBytes(2_000);
    QuarryException e = failure(pipeline(SHORT_MAGIC), server.url("/slow.parquet"));
    assertThat(e.getMessage()).isEqualTo("Not a valid parquet file");
    assertThat(e.details()).isEqualTo("No answer within 0.3 s");
  }

  @Test
  @DisplayName("a footer read slower than its limit fails with 'Could not read parquet schema'")
  void slowFooter() {
    server.route("/slow.parquet").content(people).delayOtherRanges(2_000);
    Pipeline smallTail = pipeline(limits(ROOMY_MS, ROOMY_MS, SHORT_MS, 64));
    QuarryException e = failure(smallTail, server.url("/slow.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).isEqualTo("No answer within 0.3 s");
  }

  @Test
  @DisplayName("a file without the PAR1 magic number that is not CSV or JSON either fails with 'Not a valid parquet"
      + " file'")
  void wrongMagic() {
    server.route("/page.parquet").content("<html><body>Moved</body></html>".getBytes());
    assertThat(failure(server.url("/page.parquet")).getMessage()).isEqualTo("Not a valid parquet file");
  }

  @Test
  @DisplayName("a CSV file is found from its bytes: the worker reads it as CSV (its columns, then its rows), no footer"
      + " is asked for, and the dataset is CSV")
  void csvByUrl() {
    ParquetServer.Route csv = server.route("/export").content("id,name\n1,a\n2,b\n".getBytes());
    worker.thenAnswer(rows(new JsonArray().add("id").add("BIGINT"), new JsonArray().add("name").add("VARCHAR")))
        .thenAnswer(rows(new JsonArray().add(2)));

    Pipeline.Loaded loaded = load(server.url("/export"));

    assertThat(loaded.format()).isEqualTo(DataFormat.CSV);
    assertThat(loaded.rowCount()).isEqualTo(2);
    assertThat(loaded.columns().stream().map(c -> ((JsonObject) c).getString("name"))).containsExactly("id", "name");
    assertThat(worker.requests()).hasSize(2).allSatisfy(request ->
        assertThat(request.formatOf(server.url("/export"))).isEqualTo(DataFormat.CSV));
    assertThat(csv.requests()).as("requests: the first bytes and the tail, no footer").isEqualTo(2);
    assertThat(csv.tailRequests()).isEqualTo(1);
  }

  @Test
  @DisplayName("a text file is read whole, so one past dataset.textMaxBytes is refused before the worker is asked;"
      + " one at it is read")
  void textAtAndPastItsLimit() {
    byte[] csv = "id\n1\n2\n".getBytes();
    server.route("/at.csv").content(csv);
    worker.thenAnswer(rows(new JsonArray().add("id").add("BIGINT"))).thenAnswer(rows(new JsonArray().add(2)));
    assertThat(load(pipeline(textLimit(csv.length)), server.url("/at.csv")).rowCount())
        .isEqualTo(2);

    int asked = worker.requests().size();
    QuarryException e = failure(pipeline(textLimit(csv.length - 1)),
        server.url("/at.csv"));
    assertThat(e.getMessage()).isEqualTo("File is too large (" + csv.length + " bytes); the maximum for a CSV file,"
        + " which is read whole, is " + (csv.length - 1) + " bytes");
    assertThat(worker.requests()).hasSize(asked);
  }

  private static Pipeline.Settings textLimit(long bytes) {
    return new Pipeline.Settings(ROOMY_MS, ROOMY_MS, ROOMY_MS, 2L << 30, 4096, 1 << 20, TAIL, bytes);
  }

  private static QueryResult rows(JsonArray... rows) {
    JsonArray all = new JsonArray();
    for (JsonArray row : rows) {
      all.add(row);
    }
    return new QueryResult(null, null, null, new JsonArray(), RowsJson.of(all), rows.length, false, 1, null, null);
  }

  @Test
  @DisplayName("a file that passes the PAR1 check but is too short for a footer fails with"
      + " 'Could not read parquet schema'")
  void onlyTheMagic() {
    server.route("/magic.parquet").content("PAR1".getBytes());
    server.route("/short.parquet").content("PAR1PAR1PAR".getBytes());
    server.route("/rangeless.parquet").content("PAR1".getBytes()).ignoreRange();
    for (String path : new String[] {"/magic.parquet", "/short.parquet", "/rangeless.parquet"}) {
      QuarryException e = failure(server.url(path));
      assertThat(e.getMessage()).as(path).isEqualTo("Could not read parquet schema");
      assertThat(e.details()).as(path).contains("too short for a Parquet footer");
    }
  }

  @Test
  @DisplayName("a truncated file fails with 'Could not read parquet schema'")
  void truncated() {
    server.route("/cut.parquet").content(Arrays.copyOf(people, people.length - 100));
    QuarryException e = failure(server.url("/cut.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).contains("does not end with PAR1");
  }

  @Test
  @DisplayName("a corrupt footer fails with 'Could not read parquet schema'")
  void corruptFooter() {
    byte[] corrupt = people.clone();
    int footerLength = footerLength(corrupt);
    Arrays.fill(corrupt, corrupt.length - 8 - footerLength, corrupt.length - 8, (byte) 0x7f);
    server.route("/corrupt.parquet").content(corrupt);
    QuarryException e = failure(server.url("/corrupt.parquet"));
    assertThat(e.getMessage()).isEqualTo("Could not read parquet schema");
    assertThat(e.details()).startsWith("The footer could not be decoded");
  }

  @Test
  @DisplayName("a footer length that cannot fit the file fails with 'Could not read parquet schema'")
  void impossibleFooterLength() {
    byte[] lying = people.clone();
    java.nio.ByteBuffer.wrap(lying, lying.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .putInt(Integer.MAX_VALUE);
    server.route("/lying.parquet").content(lying);
    assertThat(failure(server.url("/lying.parquet")).details()).contains("does not fit");
  }

  @Test
  @DisplayName("a file of exactly the maximum size loads; one byte more is refused as too large")
  void maxFileSize() {
    Pipeline.Settings limit = new Pipeline.Settings(ROOMY_MS, ROOMY_MS, ROOMY_MS, people.length, 4096, 1 << 20, TAIL);
    server.route("/people.parquet").content(people);
    assertThat(load(pipeline(limit), server.url("/people.parquet")).size())
        .isEqualTo(people.length);
    Pipeline.Settings smaller = new Pipeline.Settings(ROOMY_MS, ROOMY_MS, ROOMY_MS, people.length - 1, 4096, 1 << 20,
        TAIL);
    assertThat(failure(pipeline(smaller), server.url("/people.parquet")).getMessage())
        .startsWith("File is too large (");
  }

  @Test
  @DisplayName("a file of 3 GB is refused having moved no more than its tail and magic number")
  void hugeFile() {
    byte[] big = ParquetFixtures.write(dir.resolve("big.parquet"),
        "SELECT i, md5(i::VARCHAR) AS h FROM range(200000) t(i)");
    ParquetServer.Route route = server.route("/huge.parquet").content(big).claimLength(3L << 30);
    QuarryException e = failure(server.url("/huge.parquet"));
    assertThat(e.getMessage()).isEqualTo("File is too large (3.0 GB); the maximum is 2.0 GB");
    assertThat(route.bodyBytes()).isLessThanOrEqualTo(TAIL + 4);
  }

  private static int footerLength(byte[] file) {
    return java.nio.ByteBuffer.wrap(file, file.length - 8, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
  }

  @Test
  @DisplayName("with private networks disallowed, every loopback alias is refused before any request is sent")
  void loopbackAliasesRefused() {
    server.route("/people.parquet").content(people);
    Pipeline strict = pipeline(ROOMY, AddressPolicy.of(false, ""));
    int port = server.port();
    for (String host : new String[] {"127.0.0.1", "127.1", "2130706433", "0x7f.1", "0177.0.0.1", "[::ffff:127.0.0.1]",
        "localhost", "[::1]", "0.0.0.0", "127.000.000.001", "[::ffff:7f00:1]"}) {
      QuarryException e = failure(strict, "http://" + host + ":" + port + "/people.parquet");
      assertThat(e.getMessage()).as(host)
          .startsWith("URL points to a private or local network address, which is not allowed");
    }
    assertThat(server.route("/people.parquet").requests()).isZero();
  }

  @Test
  @DisplayName("with private networks disallowed, every IPv6 form that embeds 127.0.0.1 (translated, NAT64, 6to4,"
      + " compatible, Teredo) is refused by the address policy, before any connection")
  void embeddedLoopbackRefused() {
    Pipeline strict = pipeline(ROOMY, AddressPolicy.of(false, ""));
    for (String host : new String[] {"[::ffff:0:7f00:1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::7f00:1]",
        "[64:ff9b::127.0.0.1]", "[64:ff9b:1::7f00:1]", "[2002:7f00:1::]", "[::127.0.0.1]", "[::7f00:1]",
        "[2001:0:7f00:1::80ff:fffe]"}) {
      QuarryException e = failure(strict, "http://" + host + ":" + server.port() + "/people.parquet");
      assertThat(e.getMessage()).as(host)
          .startsWith("URL points to a private or local network address, which is not allowed");
    }
  }

  @Test
  @DisplayName("a redirect to a forbidden address (127.0.0.2 here) is refused; the target never sees a request")
  void redirectToForbidden() {
    ParquetServer forbidden = ParquetServer.start(vertx, "127.0.0.2");
    forbidden.route("/secret.parquet").content(people);
    server.route("/redirect.parquet").redirectTo(forbidden.url("/secret.parquet"));
    Pipeline onlyFirst = pipeline(ROOMY, new AddressPolicy(false, Set.of("127.0.0.1")));
    QuarryException e = failure(onlyFirst, server.url("/redirect.parquet"));
    assertThat(e.getMessage()).startsWith("URL redirects to a private or local network address, which is not allowed");
    assertThat(forbidden.route("/secret.parquet").requests()).isZero();
    forbidden.close().await();
  }

  @Test
  @DisplayName("a redirect to an allowed address is followed")
  void redirectFollowed() {
    server.route("/people.parquet").content(people);
    server.route("/moved.parquet").redirectTo(server.url("/people.parquet"));
    assertThat(load(server.url("/moved.parquet")).rowCount()).isEqualTo(100);
  }

  @Test
  @DisplayName("a redirect loop stops after five hops")
  void redirectLoop() {
    server.route("/loop.parquet").redirectTo(server.url("/loop.parquet"));
    QuarryException e = failure(server.url("/loop.parquet"));
    assertThat(e.getMessage()).isEqualTo("Too many redirects (more than 5)");
    ParquetServer.Route loop = server.route("/loop.parquet");
    assertThat(loop.tailRequests()).as("the tail's hops").isEqualTo(6);
    assertThat(loop.requests() - loop.tailRequests()).as("the magic number's, cancelled with the tail's failure")
        .isLessThanOrEqualTo(6);
  }
}
