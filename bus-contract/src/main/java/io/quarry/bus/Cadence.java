package io.quarry.bus;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;

/**
 * When a scheduled question runs: every hour at a minute, every day at a time, or every week on a day at a time, in
 * the user's time zone (IANA). Computed on the zone's calendar, so a daily run keeps its wall-clock time across
 * daylight-saving changes: a time the clocks skip (02:30 on a spring-forward day) runs once, at the same instant an
 * hour later on the wall (03:30); a time that happens twice (an autumn 01:30) runs once, at the first.
 *
 * @param every {@link #HOURLY}, {@link #DAILY} or {@link #WEEKLY}: a schedule runs at most once an hour
 * @param weekday ISO day of the week, 1 (Monday) to 7; read by weekly schedules only
 */
public record Cadence(String every, int hour, int minute, int weekday, ZoneId zone) {

  public static final String HOURLY = "hourly";
  public static final String DAILY = "daily";
  public static final String WEEKLY = "weekly";
  public static final String EVERY_MESSAGE = "Field 'every' must be hourly, daily or weekly (a schedule runs at most"
      + " once an hour)";

  /**
   * From a request's fields: {@code at} "HH:MM" (hourly reads its minutes; default 09:00, or minute 0 hourly),
   * {@code weekday} a day's English name (default Monday), {@code timeZone} an IANA zone (default UTC). BAD_REQUEST
   * naming the field otherwise.
   */
  public static Cadence of(String every, String at, String weekday, String timeZone) {
    if (!HOURLY.equals(every) && !DAILY.equals(every) && !WEEKLY.equals(every)) {
      throw QuarryException.badRequest(EVERY_MESSAGE);
    }
    LocalTime time = at == null ? (HOURLY.equals(every) ? LocalTime.MIDNIGHT : LocalTime.of(9, 0)) : time(at);
    return new Cadence(every, time.getHour(), time.getMinute(), day(weekday), zone(timeZone));
  }

  private static LocalTime time(String at) {
    if (!at.matches("\\d{2}:\\d{2}")) {
      throw QuarryException.badRequest("Field 'at' must be a time of day as HH:MM (24-hour), such as 09:00");
    }
    try {
      return LocalTime.parse(at);
    } catch (DateTimeException e) {
      throw QuarryException.badRequest("Field 'at' must be a time of day as HH:MM (24-hour), such as 09:00");
    }
  }

  private static int day(String weekday) {
    if (weekday == null) {
      return 1;
    }
    try {
      return DayOfWeek.valueOf(weekday.strip().toUpperCase(Locale.ROOT)).getValue();
    } catch (IllegalArgumentException e) {
      throw QuarryException.badRequest("Field 'weekday' must be a day of the week, such as monday");
    }
  }

  /** An IANA zone such as Europe/Paris, as a browser's {@code Intl.DateTimeFormat} names it; UTC when absent. */
  public static ZoneId zone(String timeZone) {
    if (timeZone == null) {
      return ZoneId.of("UTC");
    }
    try {
      return ZoneId.of(timeZone);
    } catch (DateTimeException e) {
      throw QuarryException.badRequest("Field 'time_zone' must be an IANA time zone, such as Europe/Paris");
    }
  }

  /** "HH:MM". */
  public String at() {
    return String.format(Locale.ROOT, "%02d:%02d", hour, minute);
  }

  public String weekdayName() {
    return DayOfWeek.of(weekday).name().toLowerCase(Locale.ROOT);
  }

  /** The first run strictly after {@code after}. */
  public Instant next(Instant after) {
    ZonedDateTime now = after.atZone(zone);
    if (HOURLY.equals(every)) {
      // On the instant time-line: an hour the clocks repeat runs twice, as an hour should.
      ZonedDateTime candidate = now.truncatedTo(ChronoUnit.HOURS).withMinute(minute);
      return (candidate.toInstant().isAfter(after) ? candidate : candidate.plusHours(1)).toInstant();
    }
    LocalDate date = now.toLocalDate();
    if (WEEKLY.equals(every)) {
      date = date.with(TemporalAdjusters.nextOrSame(DayOfWeek.of(weekday)));
    }
    Instant candidate = onDate(date);
    if (candidate.isAfter(after)) {
      return candidate;
    }
    return onDate(WEEKLY.equals(every) ? date.plusWeeks(1) : date.plusDays(1));
  }

  /** The run's instant on that day: a skipped time moves later by the gap, a doubled one takes the first. */
  private Instant onDate(LocalDate date) {
    return ZonedDateTime.of(date, LocalTime.of(hour, minute), zone).toInstant();
  }
}
