package io.quarry.dataset;

import java.util.LinkedHashMap;
import java.util.Map;

/** The tables each conversation had at its last query (name → URL), for the most recent 1,024 conversations. */
final class RecentTables {

  private static final int CONVERSATIONS = 1_024;

  private final Map<String, Map<String, String>> tables = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Map<String, String>> eldest) {
      return size() > CONVERSATIONS;
    }
  };

  /** The tables last seen, or null. */
  Map<String, String> get(String userId, String conversationId) {
    return tables.get(key(userId, conversationId));
  }

  void put(String userId, String conversationId, Map<String, String> current) {
    tables.put(key(userId, conversationId), Map.copyOf(current));
  }

  private static String key(String userId, String conversationId) {
    return userId + '\u0000' + conversationId;
  }
}
