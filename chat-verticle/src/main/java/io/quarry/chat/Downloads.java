package io.quarry.chat;

import java.util.HashMap;
import java.util.Map;

/**
 * The result downloads each user has in progress on this web node, from the request to the end of its file: at most
 * {@code export.maxConcurrentPerUser}. Each one holds a file on a worker's disk for as long as it lasts, so opening
 * more of them must not be a way to hold more. Kept in this node's memory, on its event loop.
 */
final class Downloads {

  private final int maxPerUser;
  private final Map<String, Integer> inProgress = new HashMap<>();

  Downloads(int maxPerUser) {
    this.maxPerUser = maxPerUser;
  }

  /** A slot for one more download, or null when the user has the most already; releasing it twice releases it once. */
  Runnable take(String userId) {
    int held = inProgress.getOrDefault(userId, 0);
    if (held >= maxPerUser) {
      return null;
    }
    inProgress.put(userId, held + 1);
    boolean[] released = {false};
    return () -> {
      if (!released[0]) {
        released[0] = true;
        inProgress.computeIfPresent(userId, (id, n) -> n > 1 ? n - 1 : null);
      }
    };
  }
}
