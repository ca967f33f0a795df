package io.quarry.chat;

import io.quarry.bus.Board;
import io.quarry.bus.BoardOps;
import io.quarry.bus.BoardOps.BoardRef;
import io.quarry.bus.Bus;
import io.quarry.bus.Cadence;
import io.quarry.bus.QuarryException;
import io.quarry.bus.Schedule;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.CreateSchedule;
import io.quarry.bus.ScheduleOps.NewSchedule;
import io.quarry.bus.ScheduleOps.ScheduleRef;
import io.quarry.bus.ScheduleOps.UpdateSchedule;
import io.quarry.bus.ScheduleRun;
import io.quarry.bus.Scopes.UserRef;
import io.quarry.bus.StorageClient;
import io.quarry.bus.Tile;
import io.quarry.bus.Timestamps;
import io.quarry.bus.net.OutboundHttp;
import io.vertx.core.Future;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * Scheduled questions as both doors use them ({@link ScheduleApi} for the browser and REST, {@link BusApi} for
 * {@code api.schedule.*}): the same checks, limits and messages. A schedule of a result runs that result's SQL over its
 * conversation; a webhook's secret is made here, answered this once, and kept to sign every delivery.
 */
final class Schedules {

  private static final SecureRandom RANDOM = new SecureRandom();
  static final String ONE_TARGET = "Give either 'result_id' or 'tile_id', not both";

  private final Bus bus;
  private final StorageClient storage;

  Schedules(Bus bus, StorageClient storage) {
    this.bus = bus;
    this.storage = storage;
  }

  /**
   * A result's SQL, or a board tile's (its run then replaces the tile's copy): NOT_FOUND when the result or tile is not
   * the user's, CONFLICT for a tile whose conversation is gone; BAD_REQUEST naming the field otherwise.
   */
  Future<Schedule> create(CreateSchedule r) {
    if (r.tileId() != null && r.resultId() != null) {
      throw QuarryException.badRequest(ONE_TARGET);
    }
    boolean tile = r.tileId() != null;
    String targetId = tile ? Bodies.required("tile_id", r.tileId(), 100)
        : Bodies.required("result_id", r.resultId(), 100);
    Cadence cadence = Cadence.of(r.every(), r.at(), r.weekday(), r.timeZone());
    String webhook = webhook(r.webhookUrl());
    String secret = webhook == null ? null : "whsec_" + HexFormat.of().formatHex(bytes(32));
    Future<Schedule> target = tile ? tile(r.userId(), targetId)
        .map(t -> new Schedule(null, r.userId(), Schedule.TILE, t.id(), t.conversationId(), t.sql(), cadence,
            webhook, secret, null, false, null))
        : storage.result(r.userId(), targetId)
        .map(result -> new Schedule(null, r.userId(), Schedule.RESULT, result.id(), result.conversationId(),
            result.sql(), cadence, webhook, secret, null, false, null));
    return target.compose(s -> ScheduleOps.CREATE.call(bus, new NewSchedule(new Schedule(UUID.randomUUID().toString(),
            s.userId(), s.targetKind(), s.targetId(), s.conversationId(), s.sql(), cadence, webhook, secret,
            Timestamps.format(cadence.next(Instant.now())), false, null))))
        .map(made -> made.withSecret(secret));
  }

  /** The user's tile, on whichever of their boards it is (a handful of boards, read from storage alone). */
  private Future<Tile> tile(String userId, String tileId) {
    return BoardOps.STORE_LIST.call(bus, new UserRef(userId)).compose(boards -> {
      Future<Tile> found = Future.failedFuture(QuarryException.notFound(BoardOps.TILE_NOT_FOUND));
      for (Board board : boards) {
        found = found.recover(e -> BoardOps.STORE_GET.call(bus, new BoardRef(userId, board.id()))
            .compose(read -> read.tiles().stream().filter(t -> t.id().equals(tileId)).findFirst()
                .map(Future::succeededFuture)
                .orElseGet(() -> Future.failedFuture(QuarryException.notFound(BoardOps.TILE_NOT_FOUND)))));
      }
      return found;
    }).compose(t -> t.conversationId() == null ? Future.failedFuture(QuarryException.conflict(Boards.CONVERSATION_GONE))
        : Future.succeededFuture(t));
  }

  /** An http or https URL; where it leads is checked when it is called, as a dataset's URL is. */
  private static String webhook(String url) {
    if (url == null || url.isBlank()) {
      return null;
    }
    if (OutboundHttp.parse(url).isEmpty()) {
      throw QuarryException.badRequest("Field 'webhook_url' must be an http or https URL");
    }
    return url;
  }

  Future<List<Schedule>> list(String userId) {
    return ScheduleOps.LIST.call(bus, new UserRef(userId));
  }

  /** Resumed, it next runs at its next time from now: the runs it missed while paused are not made up. */
  Future<Schedule> update(UpdateSchedule r) {
    if (r.paused() == null) {
      throw QuarryException.badRequest("Field 'paused' is required");
    }
    if (r.paused()) {
      return ScheduleOps.UPDATE.call(bus, new UpdateSchedule(r.userId(), r.scheduleId(), true, null));
    }
    ScheduleRef ref = new ScheduleRef(r.userId(), r.scheduleId());
    return ScheduleOps.GET.call(bus, ref).compose(s -> ScheduleOps.UPDATE.call(bus, new UpdateSchedule(r.userId(),
        r.scheduleId(), false, Timestamps.format(s.cadence().next(Instant.now())))));
  }

  Future<Void> delete(ScheduleRef ref) {
    return ScheduleOps.DELETE.call(bus, ref);
  }

  Future<List<ScheduleRun>> runs(ScheduleRef ref) {
    return ScheduleOps.RUNS.call(bus, ref);
  }

  /** Due now: the next tick of a scheduler runs and delivers it as any due run. */
  Future<Schedule> runNow(ScheduleRef ref) {
    return ScheduleOps.UPDATE.call(bus, new UpdateSchedule(ref.userId(), ref.scheduleId(), null, Timestamps.now()));
  }

  private static byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }
}
