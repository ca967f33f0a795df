package io.quarry.bus;

import static io.quarry.bus.Addresses.*;

import java.util.Locale;
import java.util.Set;

/**
 * What an API token may do, each scope all of the one before and more: {@code read} lists and reads (conversations,
 * datasets, results, usage), {@code query} also changes conversations and datasets and runs SQL, {@code chat} also
 * asks questions. A token never does more than its scope, at any door.
 */
public enum TokenScope {
  READ, QUERY, CHAT;

  /** Public operations that only read. */
  private static final Set<String> READS = Set.of(API_USER_LOCAL, API_USER_FIND, API_CONVERSATION_LIST,
      API_CONVERSATION_GET, API_DATASET_LIST, API_DATASET_PROFILE, API_RESULT_GET, API_USAGE_GET, API_PING,
      API_SHARE_LIST, API_BOARD_LIST, API_BOARD_GET, API_BOARD_STALE, API_SCHEDULE_LIST, API_SCHEDULE_RUNS);
  private static final Set<String> TURNS = Set.of(API_TURN_START, API_TURN_CONTINUE, API_TURN_STOP,
      API_TURN_FOLLOW_UPS);

  /** Its name as tokens are shown and asked for: read, query or chat. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static TokenScope of(String label) {
    for (TokenScope scope : values()) {
      if (scope.label().equals(label)) {
        return scope;
      }
    }
    throw new IllegalArgumentException("Unknown scope '" + label + "': read, query or chat");
  }

  public boolean allows(TokenScope needed) {
    return compareTo(needed) >= 0;
  }

  /** What a public operation needs. */
  public static TokenScope neededFor(String address) {
    return READS.contains(address) ? READ : TURNS.contains(address) ? CHAT : QUERY;
  }

  /** Why a token of this scope is refused what needs {@code needed}. */
  public String refusal(TokenScope needed) {
    return "This token's scope is " + label() + ", and this needs " + needed.label();
  }
}
