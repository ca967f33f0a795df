package io.quarry.app;

import static io.quarry.app.HttpAssertions.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.Bus;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps.CreateSchedule;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Tick;
import io.quarry.bus.ScheduleOps.Ticked;
import io.quarry.bus.Timestamps;
import io.quarry.dataset.DatasetSettings;
import io.quarry.dataset.Scheduler;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scheduled questions on a whole node (issue 52, item 3), with a clock the test controls: the node's scheduler ticks
 * only when told, at the instant the test names (and two schedulers of the test's own play two nodes over the node's
 * storage). The data is a Parquet file on loopback whose second version has three more rows; the webhook is a server on
 * loopback that answers as each test scripts it.
 */
class ScheduleTest {

  @TempDir
  static Path dir;
  static ChatHarness chat;
  static Hook hook;
  static Bus bus;
  /** Counts rows in the node's storage: its SQLite file here, its database in {@link PostgresScheduleTest}. */
  static Count count;

  private static final String SQL = "SELECT region, amount FROM table1 ORDER BY region";
  private static final String FOUR = "SELECT * FROM (VALUES ('east', 302), ('north', 300), ('south', 301),"
      + " ('west', 301)) t(region, amount)";
  private static final String SEVEN = FOUR + " UNION ALL SELECT * FROM (VALUES ('centre', 50), ('harbour', 60),"
      + " ('island', 63)) t(region, amount)";

  @BeforeAll
  static void start() {
    startNode(Map.of());
    count = chat::sqlite;
  }

  /** The node, on SQLite unless {@code storage} names another backend. */
  static void startNode(Map<String, String> storage) {
    Map<String, String> env = new java.util.HashMap<>(Map.of("QUARRY_SCHEDULE_TICK_MS", "0",
        "QUARRY_LOCAL_WORKERS", "1"));
    env.putAll(storage);
    chat = new ChatHarness(dir, env);
    hook = new Hook(chat.outside);
    bus = new Bus(chat.node.vertx());
  }

  interface Count {
    long of(String sql) throws Exception;
  }

  /** Every test's schedule is due at the same 09:00: each test ticks over its own alone. */
  @BeforeEach
  void removeSchedules() {
    for (Object each : chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject().getJsonArray("schedules")) {
      chat.send(HttpMethod.DELETE, "/api/schedules/" + ((JsonObject) each).getString("id"), null);
    }
  }

  @AfterAll
  static void stop() {
    chat.close();
  }

  /** A conversation over its own copy of the four-row file, the SQL run once: its result's id. */
  private static String result(String file) {
    chat.files.route("/" + file).content(ParquetFixtures.write(dir.resolve(file), FOUR));
    String conversation = chat.conversation();
    chat.addDataset(conversation, "/" + file);
    HttpResponse<Buffer> ran = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", SQL));
    assertThat(ran.statusCode()).as(ran.bodyAsString()).isEqualTo(200);
    return ran.bodyAsJsonObject().getString("id");
  }

  private static JsonObject schedule(JsonObject body) {
    HttpResponse<Buffer> made = chat.send(HttpMethod.POST, "/api/schedules", body);
    assertThat(made.statusCode()).as(made.bodyAsString()).isEqualTo(201);
    return made.bodyAsJsonObject();
  }

  private static JsonObject daily(String resultId, String hookPath) {
    return schedule(new JsonObject().put("result_id", resultId).put("every", "daily").put("at", "09:00")
        .put("time_zone", "Europe/Paris").put("webhook_url", hook.url(hookPath)));
  }

  private static Ticked tick(Instant now) {
    return ScheduleOps.TICK.call(bus, new Tick(Timestamps.format(now))).await();
  }

  private static void fileChanges(String file) {
    chat.files.route("/" + file).content(ParquetFixtures.write(dir.resolve("seven-" + file), SEVEN));
  }

  private static String userId() {
    return chat.send(HttpMethod.GET, "/api/me", null).bodyAsJsonObject().getString("id");
  }

  @Test
  @DisplayName("a daily schedule at 09:00 in Europe/Paris runs when the clock passes 09:00 and not before, once; the"
      + " next day, the file grown, it delivers '3 rows added, total 1,204 → 1,377' to the page and once to the"
      + " webhook, signed")
  void dailyRunSaysWhatChanged() throws Exception {
    JsonObject s = daily(result("daily.parquet"), "/daily");
    String secret = s.getString("webhook_secret");
    assertThat(secret).startsWith("whsec_").hasSize(6 + 64);
    Instant due = Timestamps.parse(s.getString("next_run_at"));
    assertThat(due.atZone(ZoneId.of("Europe/Paris")).toLocalTime()).isEqualTo(LocalTime.of(9, 0));
    assertThat(chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject().getJsonArray("schedules")
        .getJsonObject(0).containsKey("webhook_secret")).as("the secret is shown once").isFalse();

    assertThat(tick(due.minusSeconds(1)).runs()).isZero();
    assertThat(hook.received("/daily")).isEmpty();
    try (EventRecorder events = new EventRecorder(chat.node, userId())) {
      assertThat(tick(due).runs()).isEqualTo(1);
      JsonObject first = events.next(e -> ScheduleOps.EVENT.equals(e.getString("type")), 10);
      assertThat(first.getString("summary")).isEqualTo("First run: nothing to compare with yet (4 rows)");
    }
    assertThat(tick(due.plusSeconds(30)).runs()).as("once").isZero();
    assertThat(hook.received("/daily")).hasSize(1);

    fileChanges("daily.parquet");
    Instant nextDay = due.plus(1, ChronoUnit.DAYS);
    assertThat(tick(nextDay.minusSeconds(1)).runs()).isZero();
    try (EventRecorder events = new EventRecorder(chat.node, userId())) {
      assertThat(tick(nextDay).runs()).isEqualTo(1);
      JsonObject second = events.next(e -> ScheduleOps.EVENT.equals(e.getString("type")), 10);
      assertThat(second.getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
    }
    List<Request> delivered = hook.received("/daily");
    assertThat(delivered).hasSize(2);
    Request request = delivered.get(1);
    JsonObject body = new JsonObject(request.body());
    assertThat(body.getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
    assertThat(body.getString("status")).isEqualTo("ok");
    assertThat(body.getString("schedule_id")).isEqualTo(s.getString("id"));
    assertThat(body.getString("due_at")).isEqualTo(Timestamps.format(nextDay));
    assertThat(body.getJsonObject("comparison").getInteger("added")).isEqualTo(3);
    assertThat(body.getJsonObject("comparison").getJsonArray("moved").encode())
        .isEqualTo("[{\"column\":\"amount\",\"before\":1204,\"after\":1377,\"change\":173}]");
    request.assertSigned(secret);

    var runs = chat.send(HttpMethod.GET, "/api/schedules/" + s.getString("id") + "/runs", null).bodyAsJsonObject()
        .getJsonArray("runs");
    assertThat(runs).hasSize(2);
    assertThat(runs.getJsonObject(0).getString("webhook_state")).isEqualTo("delivered");
    assertThat(runs.getJsonObject(0).getInteger("attempts")).isEqualTo(1);
  }

  @Test
  @DisplayName("the node holding a run's lease dies mid-delivery: after the lease, the second node takes the run over"
      + " and delivers it (the run made once, its query run once), acknowledged once, signed")
  void nodeDiesHoldingTheLease() throws Exception {
    JsonObject s = daily(result("lease.parquet"), "/lease");
    Instant due = Timestamps.parse(s.getString("next_run_at"));
    fileChanges("lease.parquet");
    // The file changed before the first run: this one compares with nothing; the test is who delivers it.
    DatasetSettings settings = DatasetSettings.from(new JsonObject().put("allowPrivateNetworks", true)
        .put("schedule", new JsonObject().put("tickMs", 0)));
    Scheduler a = Scheduler.of(chat.node.vertx(), settings);
    Scheduler b = Scheduler.of(chat.node.vertx(), settings);
    try {
      Promise<Void> held = hook.hold("/lease");
      a.tick(due);
      held.future().await();
      long results = count.of("SELECT COUNT(*) FROM query_results");
      a.close().await();

      assertThat(b.tick(due.plusSeconds(60)).await().runs()).as("the lease is still the dead node's").isZero();
      assertThat(b.tick(due.plusSeconds(121)).await().runs()).isEqualTo(1);
      assertThat(count.of("SELECT COUNT(*) FROM query_results")).as("no query ran again").isEqualTo(results);
      assertThat(count.of("SELECT COUNT(*) FROM schedule_runs WHERE schedule_id = '" + s.getString("id") + "'"))
          .isEqualTo(1);
      List<Request> received = hook.received("/lease");
      assertThat(received).hasSize(2);
      assertThat(received.stream().filter(r -> r.answered() == 200).count()).as("acknowledged once").isEqualTo(1);
      assertThat(new JsonObject(received.get(0).body()).getString("run_id"))
          .isEqualTo(new JsonObject(received.get(1).body()).getString("run_id"));
      received.get(1).assertSigned(s.getString("webhook_secret"));
      assertThat(b.tick(due.plusSeconds(200)).await().runs()).as("released: next due tomorrow").isZero();
      assertThat(Timestamps.parse(chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject()
          .getJsonArray("schedules").stream().map(JsonObject.class::cast)
          .filter(j -> j.getString("id").equals(s.getString("id"))).findFirst().orElseThrow()
          .getString("next_run_at"))).isEqualTo(due.plus(1, ChronoUnit.DAYS));
    } finally {
      b.close().await();
    }
  }

  @Test
  @DisplayName("a run in flight keeps its lease: renewed at the holding node's tick, it is not taken over past its"
      + " first end, only once the node is gone and the renewed lease has passed")
  void leaseRenewedWhileInFlight() throws Exception {
    JsonObject s = daily(result("renew.parquet"), "/renew");
    Instant due = Timestamps.parse(s.getString("next_run_at"));
    DatasetSettings settings = DatasetSettings.from(new JsonObject().put("allowPrivateNetworks", true)
        .put("schedule", new JsonObject().put("tickMs", 0)));
    Scheduler a = Scheduler.of(chat.node.vertx(), settings);
    Scheduler b = Scheduler.of(chat.node.vertx(), settings);
    try {
      Promise<Void> held = hook.hold("/renew");
      a.tick(due);
      held.future().await();
      assertThat(a.tick(due.plusSeconds(100)).await().runs()).isZero();
      assertThat(b.tick(due.plusSeconds(130)).await().runs()).as("renewed until 220 s after").isZero();
      a.close().await();
      assertThat(b.tick(due.plusSeconds(219)).await().runs()).isZero();
      assertThat(b.tick(due.plusSeconds(222)).await().runs()).isEqualTo(1);
      assertThat(hook.received("/renew")).extracting(Request::answered).containsExactly(0, 200);
    } finally {
      b.close().await();
    }
  }

  @Test
  @DisplayName("a program schedules, pauses, resumes and lists over the bus; 'run now' makes a schedule due at once and"
      + " the next tick runs it")
  void busAndRunNow() {
    String resultId = result("bus.parquet");
    String user = userId();
    Schedule made = ScheduleOps.API_CREATE.call(bus, new CreateSchedule(user, resultId, null, "weekly", "08:30",
        "friday", "America/New_York", hook.url("/bus"))).await();
    assertThat(made.webhookSecret()).startsWith("whsec_");
    assertThat(made.cadence().weekdayName()).isEqualTo("friday");
    ScheduleRef ref = new ScheduleRef(user, made.id());
    assertThat(ScheduleOps.API_PAUSE.call(bus, ref).await().paused()).isTrue();
    assertThat(ScheduleOps.API_LIST.call(bus, new UserRef(user)).await()).extracting(Schedule::paused)
        .containsExactly(true);
    assertThat(ScheduleOps.API_RESUME.call(bus, ref).await().paused()).isFalse();

    Instant before = Instant.now();
    HttpResponse<Buffer> now = chat.send(HttpMethod.POST, "/api/schedules/" + made.id() + "/run", null);
    assertThat(now.statusCode()).as(now.bodyAsString()).isEqualTo(202);
    Instant due = Timestamps.parse(now.bodyAsJsonObject().getString("next_run_at"));
    assertThat(due).isBetween(before.minusSeconds(1), Instant.now());
    assertThat(tick(due).runs()).isEqualTo(1);
    assertThat(ScheduleOps.API_RUNS.call(bus, ref).await()).extracting(ScheduleRun::summary)
        .containsExactly("First run: nothing to compare with yet (4 rows)");
    assertThat(hook.received("/bus")).hasSize(1);
    ScheduleOps.API_DELETE.call(bus, ref).await();
    assertThat(ScheduleOps.API_LIST.call(bus, new UserRef(user)).await()).isEmpty();
  }

  @Test
  @DisplayName("a webhook that answers 500 is tried again with exponential back-off (30 s, then 60 s), not before,"
      + " until it answers 200; each attempt signed anew")
  void retriesWithBackOff() throws Exception {
    JsonObject s = daily(result("retry.parquet"), "/retry");
    Instant due = Timestamps.parse(s.getString("next_run_at"));
    hook.answer("/retry", 500, 500, 200);
    tick(due);
    assertThat(tick(due.plusSeconds(29)).retries()).isZero();
    assertThat(tick(due.plusSeconds(31)).retries()).isEqualTo(1);
    assertThat(tick(due.plusSeconds(31 + 59)).retries()).isZero();
    assertThat(tick(due.plusSeconds(31 + 61)).retries()).isEqualTo(1);
    assertThat(tick(due.plusSeconds(400)).retries()).as("delivered: no more attempts").isZero();
    List<Request> received = hook.received("/retry");
    assertThat(received).extracting(Request::answered).containsExactly(500, 500, 200);
    received.forEach(r -> r.assertSigned(s.getString("webhook_secret")));
    JsonObject run = chat.send(HttpMethod.GET, "/api/schedules/" + s.getString("id") + "/runs", null)
        .bodyAsJsonObject().getJsonArray("runs").getJsonObject(0);
    assertThat(run.getString("webhook_state")).isEqualTo("delivered");
    assertThat(run.getInteger("attempts")).isEqualTo(3);
  }

  @Test
  @DisplayName("a run whose dataset is gone fails, and is delivered with its reason, which names no local path")
  void failedRunIsDelivered() throws Exception {
    String resultId = result("gone.parquet");
    JsonObject s = daily(resultId, "/gone");
    String conversation = chat.send(HttpMethod.GET, "/api/results/" + resultId, null).bodyAsJsonObject()
        .getString("conversation_id");
    String dataset = chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0).getString("id");
    assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + conversation + "/datasets/" + dataset, null)
        .statusCode()).isEqualTo(204);
    try (EventRecorder events = new EventRecorder(chat.node, userId())) {
      tick(Timestamps.parse(s.getString("next_run_at")));
      JsonObject event = events.next(e -> ScheduleOps.EVENT.equals(e.getString("type")), 10);
      assertThat(event.getString("status")).isEqualTo("failed");
      assertThat(event.getString("reason")).contains("table1").doesNotContain(dir.toString());
    }
    JsonObject body = new JsonObject(hook.received("/gone").get(0).body());
    assertThat(body.getBoolean("ok")).isFalse();
    assertThat(body.getString("status")).isEqualTo("failed");
    assertThat(body.getString("reason")).contains("table1").doesNotContain(dir.toString());
  }

  @Test
  @DisplayName("a board's tile scheduled daily runs at its time, once: its stored copy is replaced by the run's rows,"
      + " and the comparison ('3 rows added, total 1,204 → 1,377') is delivered to the page and the webhook and shown"
      + " on the tile as the board reads it")
  void tileScheduleRefillsTheTile() throws Exception {
    String resultId = result("tile.parquet");
    String board = chat.send(HttpMethod.POST, "/api/boards", new JsonObject().put("title", "Regions"))
        .bodyAsJsonObject().getString("id");
    String tile = chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", resultId)).bodyAsJsonObject().getString("id");
    JsonObject s = schedule(new JsonObject().put("tile_id", tile).put("every", "daily").put("at", "09:00")
        .put("time_zone", "Europe/Paris").put("webhook_url", hook.url("/tile")));
    assertThat(s.getString("target_kind")).isEqualTo("tile");
    assertThat(s.getString("target_id")).isEqualTo(tile);
    Instant due = Timestamps.parse(s.getString("next_run_at"));
    assertThat(tick(due).runs()).isEqualTo(1);

    fileChanges("tile.parquet");
    Instant nextDay = due.plus(1, ChronoUnit.DAYS);
    assertThat(tileOf(board, tile).getLong("total_rows")).as("the tile keeps its copy until its run").isEqualTo(4);
    try (EventRecorder events = new EventRecorder(chat.node, userId())) {
      assertThat(tick(nextDay).runs()).isEqualTo(1);
      JsonObject event = events.next(e -> ScheduleOps.EVENT.equals(e.getString("type")), 10);
      assertThat(event.getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
      assertThat(event.getString("target_kind")).isEqualTo("tile");
      assertThat(event.getString("target_id")).isEqualTo(tile);
    }
    assertThat(tick(nextDay.plusSeconds(30)).runs()).as("once").isZero();
    JsonObject refilled = tileOf(board, tile);
    assertThat(refilled.getLong("total_rows")).isEqualTo(7);
    assertThat(refilled.getJsonArray("rows").encode()).contains("harbour");
    JsonObject shown = refilled.getJsonObject("schedule");
    assertThat(shown.getString("id")).isEqualTo(s.getString("id"));
    assertThat(shown.getString("every")).isEqualTo("daily");
    assertThat(shown.getJsonObject("last_run").getString("summary")).isEqualTo("3 rows added, total 1,204 → 1,377");
    assertThat(shown.getJsonObject("last_run").getString("due_at")).isEqualTo(Timestamps.format(nextDay));
    List<Request> delivered = hook.received("/tile");
    assertThat(delivered).hasSize(2);
    assertThat(new JsonObject(delivered.get(1).body()).getString("summary"))
        .isEqualTo("3 rows added, total 1,204 → 1,377");
    delivered.get(1).assertSigned(s.getString("webhook_secret"));

    assertThat(chat.send(HttpMethod.DELETE, "/api/boards/" + board + "/tiles/" + tile, null).statusCode())
        .isEqualTo(204);
    assertThat(count.of("SELECT COUNT(*) FROM schedules WHERE id = '" + s.getString("id") + "'"))
        .as("a tile removed takes its schedule").isZero();
  }

  @Test
  @DisplayName("a scheduled tile whose dataset is gone fails its run, delivered with its reason; its board deleted,"
      + " its schedule goes too")
  void tileRunFailsAndGoesWithItsBoard() throws Exception {
    String resultId = result("tilegone.parquet");
    String board = chat.send(HttpMethod.POST, "/api/boards", new JsonObject()).bodyAsJsonObject().getString("id");
    String tile = chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject()
        .put("result_id", resultId)).bodyAsJsonObject().getString("id");
    JsonObject s = schedule(new JsonObject().put("tile_id", tile).put("every", "daily").put("at", "09:00")
        .put("time_zone", "Europe/Paris").put("webhook_url", hook.url("/tilegone")));
    String conversation = chat.send(HttpMethod.GET, "/api/results/" + resultId, null).bodyAsJsonObject()
        .getString("conversation_id");
    String dataset = chat.conversationJson(conversation).getJsonArray("datasets").getJsonObject(0).getString("id");
    assertThat(chat.send(HttpMethod.DELETE, "/api/conversations/" + conversation + "/datasets/" + dataset, null)
        .statusCode()).isEqualTo(204);
    try (EventRecorder events = new EventRecorder(chat.node, userId())) {
      tick(Timestamps.parse(s.getString("next_run_at")));
      JsonObject event = events.next(e -> ScheduleOps.EVENT.equals(e.getString("type")), 10);
      assertThat(event.getString("status")).isEqualTo("failed");
      assertThat(event.getString("reason")).contains("table1");
    }
    assertThat(new JsonObject(hook.received("/tilegone").get(0).body()).getString("status")).isEqualTo("failed");
    JsonObject kept = tileOf(board, tile);
    assertThat(kept.getLong("total_rows")).as("the tile keeps its data").isEqualTo(4);
    assertThat(kept.getJsonObject("schedule").getJsonObject("last_run").getString("status")).isEqualTo("failed");

    assertThat(chat.send(HttpMethod.DELETE, "/api/boards/" + board, null).statusCode()).isEqualTo(204);
    assertThat(count.of("SELECT COUNT(*) FROM schedules WHERE id = '" + s.getString("id") + "'"))
        .as("a board deleted takes its tiles' schedules").isZero();
  }

  /** The tile as its board's page reads it. */
  private static JsonObject tileOf(String board, String tile) {
    return chat.send(HttpMethod.GET, "/api/boards/" + board, null).bodyAsJsonObject().getJsonArray("tiles").stream()
        .map(JsonObject.class::cast).filter(t -> t.getString("id").equals(tile)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("a schedule runs at most hourly and in a real time zone; its webhook is an http(s) URL; it"
      + " schedules a result or a tile of the user's, not both; hourly at :15 runs at the next quarter past")
  void refusals() {
    String resultId = result("refusals.parquet");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", resultId)
        .put("every", "minutely")), 400, "Field 'every' must be hourly, daily or weekly (a schedule runs at most once"
        + " an hour)");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", resultId)
        .put("every", "daily").put("time_zone", "Mars/Olympus")), 400, "Field 'time_zone' must be an IANA time zone,"
        + " such as Europe/Paris");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", resultId)
        .put("every", "daily").put("at", "25:00")), 400, "Field 'at' must be a time of day as HH:MM (24-hour), such"
        + " as 09:00");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", resultId)
        .put("every", "daily").put("webhook_url", "ftp://example.com/hook")), 400, "Field 'webhook_url' must be an"
        + " http or https URL");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("tile_id", "t1")
        .put("every", "daily")), 404, "Tile not found");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("tile_id", "t1")
        .put("result_id", resultId).put("every", "daily")), 400, "Give either 'result_id' or 'tile_id', not both");
    assertError(chat.send(HttpMethod.POST, "/api/schedules", new JsonObject().put("result_id", UUID.randomUUID()
        .toString()).put("every", "daily")), 404, "Result not found");
    JsonObject hourly = schedule(new JsonObject().put("result_id", resultId).put("every", "hourly").put("at", "00:15"));
    assertThat(Timestamps.parse(hourly.getString("next_run_at")).atZone(ZoneId.of("UTC")).getMinute()).isEqualTo(15);
    assertThat(hourly.containsKey("webhook_secret")).isFalse();
  }

  /** The webhook's receiver: every request it got, and how it answered, as each test scripts it. */
  static final class Hook {
    private final HttpServer server;
    private final Map<String, List<Request>> received = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Deque<Integer>> answers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Promise<Void>> holds = new java.util.concurrent.ConcurrentHashMap<>();

    Hook(io.vertx.core.Vertx vertx) {
      server = vertx.createHttpServer().requestHandler(this::handle).listen(0, "127.0.0.1").await();
    }

    String url(String path) {
      return "http://127.0.0.1:" + server.actualPort() + path;
    }

    void answer(String path, Integer... statuses) {
      answers.put(path, new ArrayDeque<>(List.of(statuses)));
    }

    /** The next request on the path is never answered; the promise completes when it arrives. */
    Promise<Void> hold(String path) {
      Promise<Void> held = Promise.promise();
      holds.put(path, held);
      return held;
    }

    synchronized List<Request> received(String path) {
      return new ArrayList<>(received.getOrDefault(path, List.of()));
    }

    private void handle(HttpServerRequest request) {
      request.body().onSuccess(body -> {
        Promise<Void> held = holds.remove(request.path());
        Deque<Integer> scripted = answers.get(request.path());
        int status = held != null ? 0 : scripted == null || scripted.isEmpty() ? 200 : scripted.poll();
        synchronized (this) {
          received.computeIfAbsent(request.path(), p -> new ArrayList<>()).add(new Request(request.method().name(),
              request.getHeader("X-Quarry-Timestamp"), request.getHeader("X-Quarry-Signature"),
              body.toString(StandardCharsets.UTF_8), status));
        }
        if (held != null) {
          held.complete();
        } else {
          request.response().setStatusCode(status).end("ok");
        }
      });
    }
  }

  /** {@code answered} 0: never answered (held). */
  record Request(String method, String timestamp, String signature, String body, int answered) {
    void assertSigned(String secret) {
      assertThat(method).isEqualTo("POST");
      assertThat(Long.parseLong(timestamp)).isPositive();
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = "sha256=" + HexFormat.of().formatHex(mac.doFinal((timestamp + "." + body)
            .getBytes(StandardCharsets.UTF_8)));
        assertThat(signature).isEqualTo(expected);
      } catch (java.security.GeneralSecurityException e) {
        throw new AssertionError(e);
      }
    }
  }
}
