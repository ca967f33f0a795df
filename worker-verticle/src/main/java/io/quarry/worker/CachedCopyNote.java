package io.quarry.worker;

import io.quarry.bus.Sizes;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** What an answer computed from cached copies says when their servers did not confirm them current in time. */
final class CachedCopyNote {

  private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
      .withZone(ZoneOffset.UTC);

  private CachedCopyNote() {
  }

  static String of(Revalidation.Unconfirmed unconfirmed, long waitedMs) {
    List<String> tables = unconfirmed.tables();
    boolean one = tables.size() == 1;
    return "Answered from the cached " + (one ? "copy of " : "copies of ") + names(tables)
        + ", last confirmed current at " + WHEN.format(unconfirmed.confirmedAt()) + ": "
        + (one ? "its server" : "their servers") + " did not confirm within " + Sizes.seconds(waitedMs) + " that "
        + (one ? "the file is" : "the files are") + " unchanged, so newer data may exist.";
  }

  private static String names(List<String> tables) {
    if (tables.size() == 1) {
      return tables.get(0);
    }
    return String.join(", ", tables.subList(0, tables.size() - 1)) + " and " + tables.get(tables.size() - 1);
  }
}
