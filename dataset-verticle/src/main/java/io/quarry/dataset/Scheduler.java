package io.quarry.dataset;

import io.quarry.bus.Addresses;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.FillTile;
import io.quarry.bus.Bus;
import io.quarry.bus.ChartData;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Defaults;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Claim;
import io.quarry.bus.ScheduleOps.Delivery;
import io.quarry.bus.ScheduleOps.Lease;
import io.quarry.bus.ScheduleOps.Pending;
import io.quarry.bus.ScheduleOps.RunStart;
import io.quarry.bus.ScheduleOps.StartRun;
import io.quarry.bus.ScheduleOps.Ticked;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Timestamps;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs scheduled questions on a dataset node: the role that runs a conversation's queries (through the same {@code
 * dataset.query.run}, with its lanes and limits) and holds the datasets' address policy, which webhooks are held to.
 * Each tick, at an instant its caller names (the periodic timer's clock, or a test's), claims the due schedules under a
 * lease in storage, and for each makes the due time's run once (a node that finds it made by a dead node delivers what
 * that node stored, or runs it if it never ended), compares it with the run before, stores it, publishes it to the
 * user's events, calls the webhook, sets the next run and frees the lease. Webhook retries are claimed likewise.
 */
public final class Scheduler {

  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);

  /** The {@code schedule} section. {@code tickMs} 0: no timer (ticks come over {@link ScheduleOps#TICK} alone). */
  public record Settings(long tickMs, long leaseMs, long webhookTimeoutMs, int webhookMaxAttempts, long webhookBackoffMs) {
    public static Settings from(JsonObject config) {
      JsonObject c = Defaults.section("schedule", config);
      return new Settings(c.getLong("tickMs"), c.getLong("leaseMs"), c.getLong("webhookTimeoutMs"),
          c.getInteger("webhookMaxAttempts"), c.getLong("webhookBackoffMs"));
    }
  }

  private static final int WEBHOOK_CONNECTIONS = 4;

  private final Vertx vertx;
  private final OutboundHttp http;
  private final Bus bus;
  private final DatasetClient queries;
  private final Webhooks webhooks;
  private final Settings settings;
  private final String node = UUID.randomUUID().toString();
  /** The last tick's instant and when it came, so that a lease is renewed on the clock the ticks keep. */
  private volatile Instant tickedAt = Instant.now();
  private volatile long tickedNanos = System.nanoTime();
  private volatile boolean closed;
  /** The runs in flight on this node, by schedule id, with the claim whose lease they hold. */
  private final Map<String, String> inFlight = new ConcurrentHashMap<>();

  private Scheduler(Vertx vertx, OutboundHttp http, Bus bus, DatasetClient queries, Webhooks webhooks,
      Settings settings) {
    this.vertx = vertx;
    this.http = http;
    this.bus = bus;
    this.queries = queries;
    this.webhooks = webhooks;
    this.settings = settings;
  }

  /**
   * A scheduler of this dataset node's settings, with a client of its own for webhooks (held to the datasets' address
   * policy, with the webhook timeout as its connect timeout). Call from the verticle (or test) whose bus it uses.
   */
  public static Scheduler of(Vertx vertx, DatasetSettings settings) {
    Settings s = settings.schedules();
    OutboundHttp http = new OutboundHttp(vertx, settings.policy(), (int) s.webhookTimeoutMs(), settings.originCaFile(),
        WEBHOOK_CONNECTIONS);
    return new Scheduler(vertx, http, new Bus(vertx), new DatasetClient(vertx, settings.timeouts()),
        new Webhooks(vertx, http, s.webhookTimeoutMs()), s);
  }

  /** Ticks on the system clock every {@code tickMs}, unless it is 0. */
  public void start() {
    if (settings.tickMs() > 0) {
      vertx.setPeriodic(settings.tickMs(), id -> {
        if (!closed) {
          tick(Instant.now()).onFailure(e -> log.warn("A scheduler tick failed: {}", e.getMessage()));
        }
      });
    }
  }

  /** As a node that dies: nothing more is written; its leases expire and the next node's tick takes them over. */
  public Future<Void> close() {
    closed = true;
    return http.close();
  }

  /** One tick at {@code now}: the due schedules run, the due retries are attempted; answers how many of each. */
  public Future<Ticked> tick(Instant now) {
    if (closed) {
      return Future.failedFuture("This scheduler was closed");
    }
    tickedAt = now;
    tickedNanos = System.nanoTime();
    // A run still in flight keeps its lease on the clock the ticks keep, besides its own timer.
    List<Future<Void>> renewed = inFlight.entrySet().stream().map(e -> renew(e.getKey(), e.getValue())).toList();
    String lease = Timestamps.format(now.plusMillis(settings.leaseMs()));
    String claim = node + ":" + UUID.randomUUID();
    return Future.join(renewed).transform(done -> ScheduleOps.CLAIM.call(bus, new Claim(claim,
            Timestamps.format(now), lease)))
        .compose(due -> inTurn(due, s -> run(s, claim)).map(due.size()))
        .compose(runs -> ScheduleOps.RETRIES_CLAIM.call(bus, new Claim(claim + ":retries", Timestamps.format(now),
                lease))
            .compose(pending -> inTurn(pending, p -> attempt(p.schedule(), p.run())).map(pending.size()))
            .map(retries -> new Ticked(runs, retries)));
  }

  /** One after another: a user's runs wait in their query lane, not beside it. */
  private static <T> Future<Void> inTurn(List<T> items, Function<T, Future<?>> each) {
    Future<Void> chain = Future.succeededFuture();
    for (T item : items) {
      chain = chain.compose(v -> each.apply(item).<Void>mapEmpty().recover(e -> Future.succeededFuture()));
    }
    return chain;
  }

  private Instant now() {
    return tickedAt.plusNanos(System.nanoTime() - tickedNanos);
  }

  /**
   * Under the lease, renewed while the run is in flight; a failure leaves the lease to expire and be taken over, and a
   * lease already lost ends it before anything is run.
   */
  private Future<Void> run(Schedule schedule, String claim) {
    long renewal = vertx.setPeriodic(Math.max(1, settings.leaseMs() / 3), id -> renew(schedule.id(), claim));
    inFlight.put(schedule.id(), claim);
    StartRun start = new StartRun(schedule.id(), schedule.nextRunAt(), UUID.randomUUID().toString(),
        schedule.webhookUrl() != null);
    // A schedule that waited behind others in this tick may have had its lease taken over: the renewal says so.
    return alive(() -> ScheduleOps.RENEW.call(bus, new Lease(schedule.id(), claim, Timestamps.format(now()
            .plusMillis(settings.leaseMs())))))
        .compose(held -> ScheduleOps.RUN_START.call(bus, start))
        .compose(started -> started.run().finished() ? Future.succeededFuture(started.run()) : execute(schedule, started))
        .compose(run -> deliver(schedule, run))
        .compose(v -> alive(() -> ScheduleOps.RELEASE.call(bus, new Lease(schedule.id(), claim,
            Timestamps.format(schedule.cadence().next(later(Timestamps.parse(schedule.nextRunAt()), now())))))))
        .onFailure(e -> log.warn("Scheduled question {} did not finish its run of {}: {}", schedule.id(),
            schedule.nextRunAt(), e.getMessage()))
        .onComplete(done -> {
          vertx.cancelTimer(renewal);
          inFlight.remove(schedule.id(), claim);
        });
  }

  /** Never fails: a lease lost (another node took it over) is said in the log, and the run's end changes nothing. */
  private Future<Void> renew(String scheduleId, String claim) {
    if (closed) {
      return Future.succeededFuture();
    }
    return ScheduleOps.RENEW.call(bus, new Lease(scheduleId, claim, Timestamps.format(now().plusMillis(
            settings.leaseMs()))))
        .recover(e -> {
          log.warn("Lost the lease of scheduled question {}: {}", scheduleId, e.getMessage());
          return Future.succeededFuture();
        });
  }

  private static Instant later(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  /**
   * The query as a conversation's runs it (a tile's, then copied into the tile as its Re-run does); its failure (a
   * dataset gone, an engine error, the tile removed) is the run's reason.
   */
  private Future<ScheduleRun> execute(Schedule schedule, RunStart started) {
    ScheduleRun run = started.run();
    return queries.query(schedule.userId(), schedule.conversationId(), schedule.sql())
        .compose(result -> Schedule.TILE.equals(schedule.targetKind()) ? refill(schedule, result).map(result)
            : Future.succeededFuture(result))
        .map(result -> ok(run, started.previous(), result))
        .recover(e -> Future.succeededFuture(run.ended(ScheduleRun.FAILED, reason(e), null, null, null,
            "Failed: " + reason(e), null, Timestamps.format(now()))))
        .compose(ended -> alive(() -> ScheduleOps.RUN_FINISH.call(bus, ended)));
  }

  /** The tile's copy replaced by the run's result; a chart's drawing computed again of it, as a Re-run computes it. */
  private Future<Void> refill(Schedule schedule, QueryResult result) {
    String userId = schedule.userId();
    return alive(() -> BoardOps.STORE_FILL.call(bus, new FillTile(userId, null, schedule.targetId(), result.id(),
            null)))
        .compose(tile -> tile.chart() == null ? Future.succeededFuture() : queries.chart(userId, result.id(),
                ChartData.fromJson(tile.chart()).spec(), "")
            .compose(chart -> alive(() -> BoardOps.STORE_FILL.call(bus, new FillTile(userId, tile.boardId(),
                tile.id(), result.id(), chart.toJson())))))
        .mapEmpty();
  }

  private ScheduleRun ok(ScheduleRun run, ScheduleRun previous, QueryResult result) {
    JsonObject comparison = previous == null || previous.rows() == null
        ? RunComparison.first(result.columns(), result.rowValues())
        : RunComparison.compare(previous.columns(), previous.rows(), result.columns(), result.rowValues());
    String summary = (String) comparison.remove("summary");
    comparison.put("truncated", result.truncated());
    return run.ended(ScheduleRun.OK, null, result.id(), result.columns(), result.rowValues(), summary, comparison,
        Timestamps.format(now()));
  }

  /** Quarry's own messages are written for users already (engine texts cleaned); anything else is not shown. */
  private static String reason(Throwable e) {
    return e instanceof QuarryException q && q.getMessage() != null ? q.getMessage()
        : "The query could not be run (" + e.getClass().getSimpleName() + ")";
  }

  /**
   * The page's event once (noted before the webhook is called, so that a node taking over does not send it again), then
   * the webhook's first attempt when none was made.
   */
  private Future<Void> deliver(Schedule schedule, ScheduleRun run) {
    Future<ScheduleRun> evented = run.eventSent() ? Future.succeededFuture(run) : alive(() -> {
      vertx.eventBus().publish(Addresses.chatEvents(schedule.userId()), ScheduleOps.event(schedule, run));
      return ScheduleOps.RUN_DELIVERED.call(bus, new Delivery(run.id(), true, run.webhookState(), run.attempts(),
          run.nextAttemptAt(), run.lastError()));
    }).map(run);
    boolean firstAttempt = ScheduleRun.PENDING.equals(run.webhookState()) && run.nextAttemptAt() == null;
    return evented.compose(sent -> firstAttempt ? attempt(schedule, sent) : Future.succeededFuture());
  }

  /** One webhook attempt, its outcome stored: delivered, given up, or due again after an exponential back-off. */
  private Future<Void> attempt(Schedule schedule, ScheduleRun run) {
    return alive(() -> webhooks.send(schedule, run, now())).compose(attempt -> {
      int attempts = run.attempts() + 1;
      boolean retry = attempt.outcome() == Webhooks.Outcome.FAILED && attempts < settings.webhookMaxAttempts();
      String state = attempt.outcome() == Webhooks.Outcome.DELIVERED ? ScheduleRun.DELIVERED
          : retry ? ScheduleRun.PENDING : ScheduleRun.GAVE_UP;
      String next = retry ? Timestamps.format(now().plusMillis(settings.webhookBackoffMs() << (attempts - 1))) : null;
      if (attempt.error() != null) {
        log.info("Webhook of scheduled question {} (run {}), attempt {}: {}", schedule.id(), run.id(), attempts,
            attempt.error());
      }
      return alive(() -> ScheduleOps.RUN_DELIVERED.call(bus, new Delivery(run.id(), true, state, attempts, next,
          attempt.error())));
    });
  }

  /** A closed scheduler writes nothing more, as a dead node would not. */
  private <T> Future<T> alive(java.util.function.Supplier<Future<T>> step) {
    return closed ? Future.failedFuture("This scheduler was closed") : step.get();
  }
}
