package io.quarry.chat;

import io.quarry.bus.Bus;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.UpdateSchedule;

/**
 * {@code api.schedule.*}: the scheduled questions of {@link ScheduleApi} on the event bus and the bridge, through the
 * same {@link Schedules}; changes draw on the user's budget of changes, as the browser's do.
 */
final class ScheduleBusApi {

  private final Bus bus;
  private final Schedules schedules;
  private final WriteLimit writes;

  ScheduleBusApi(Bus bus, Schedules schedules, WriteLimit writes) {
    this.bus = bus;
    this.schedules = schedules;
    this.writes = writes;
  }

  void serve() {
    bus.serve(ScheduleOps.API_CREATE, r -> writes.change(r.userId(), () -> schedules.create(r)));
    bus.serve(ScheduleOps.API_LIST, r -> schedules.list(r.userId()));
    bus.serve(ScheduleOps.API_PAUSE, r -> writes.change(r.userId(), () -> schedules.update(
        new UpdateSchedule(r.userId(), r.scheduleId(), true, null))));
    bus.serve(ScheduleOps.API_RESUME, r -> writes.change(r.userId(), () -> schedules.update(
        new UpdateSchedule(r.userId(), r.scheduleId(), false, null))));
    bus.serve(ScheduleOps.API_DELETE, r -> writes.change(r.userId(), () -> schedules.delete(r)));
    bus.serve(ScheduleOps.API_RUNS, schedules::runs);
    bus.serve(ScheduleOps.API_RUN_NOW, r -> writes.change(r.userId(), () -> schedules.runNow(r)));
  }
}
