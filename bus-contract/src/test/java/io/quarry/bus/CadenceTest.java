package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** When scheduled questions run: on the zone's calendar, once a day across daylight-saving changes. */
class CadenceTest {

  private static Instant at(String text) {
    return Instant.parse(text);
  }

  @Test
  @DisplayName("daily at 09:00 in Europe/Paris: the next 09:00 there, in winter and in summer time; not the one now")
  void daily() {
    Cadence c = Cadence.of("daily", "09:00", null, "Europe/Paris");
    assertThat(c.next(at("2026-01-10T07:00:00Z"))).isEqualTo(at("2026-01-10T08:00:00Z"));
    assertThat(c.next(at("2026-01-10T08:00:00Z"))).isEqualTo(at("2026-01-11T08:00:00Z"));
    assertThat(c.next(at("2026-07-10T06:59:59Z"))).isEqualTo(at("2026-07-10T07:00:00Z"));
  }

  @Test
  @DisplayName("a daily 02:30 on the spring-forward day runs once, at 03:30 on the wall; an autumn 02:30 that happens"
      + " twice runs once, at the first")
  void daylightSaving() {
    Cadence c = Cadence.of("daily", "02:30", null, "Europe/Paris");
    // 2026-03-29: clocks go from 02:00 to 03:00 (UTC+1 → UTC+2).
    Instant spring = c.next(at("2026-03-28T12:00:00Z"));
    assertThat(spring).isEqualTo(at("2026-03-29T01:30:00Z"));
    assertThat(c.next(spring)).isEqualTo(at("2026-03-30T00:30:00Z"));
    // 2026-10-25: 02:30 happens at 00:30Z and at 01:30Z.
    Instant autumn = c.next(at("2026-10-24T12:00:00Z"));
    assertThat(autumn).isEqualTo(at("2026-10-25T00:30:00Z"));
    assertThat(c.next(autumn)).isEqualTo(at("2026-10-26T01:30:00Z"));
  }

  @Test
  @DisplayName("hourly at :15 and weekly on Monday at 08:00 in New York")
  void hourlyAndWeekly() {
    assertThat(Cadence.of("hourly", "00:15", null, null).next(at("2026-01-10T07:20:00Z")))
        .isEqualTo(at("2026-01-10T08:15:00Z"));
    Cadence weekly = Cadence.of("weekly", "08:00", "monday", "America/New_York");
    // 2026-01-10 is a Saturday.
    assertThat(weekly.next(at("2026-01-10T12:00:00Z"))).isEqualTo(at("2026-01-12T13:00:00Z"));
    assertThat(weekly.next(at("2026-01-12T13:00:00Z"))).isEqualTo(at("2026-01-19T13:00:00Z"));
  }

  @Test
  @DisplayName("hourly is the most often a schedule runs; a zone must be IANA's; a weekday a day's name")
  void refusals() {
    assertThat(Cadence.of("hourly", null, null, null).every()).isEqualTo("hourly");
    assertThatThrownBy(() -> Cadence.of("minutely", null, null, null)).hasMessage(Cadence.EVERY_MESSAGE);
    assertThatThrownBy(() -> Cadence.of("daily", null, null, "Mars/Olympus"))
        .hasMessage("Field 'time_zone' must be an IANA time zone, such as Europe/Paris");
    assertThatThrownBy(() -> Cadence.of("weekly", null, "someday", null))
        .hasMessage("Field 'weekday' must be a day of the week, such as monday");
  }
}
