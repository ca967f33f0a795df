package io.quarry.chat;

import java.util.HashMap;
import java.util.Map;

/**
 * What the bridge's unfinished frames hold in this node's memory: the bytes a connection has sent of frames it has not
 * finished. A frame may hold up to 1 MiB, so a thousand connections that each start one and never finish it would hold
 * a gigabyte: their bytes together are bounded per user (the signed-in user's connections) and per node (every
 * connection, signed in or not). Confined to the bridge's event loop.
 */
final class FrameMemory {

  /** What a connection's new bytes may do. */
  enum Verdict { HELD, OVER_USER, OVER_NODE }

  private final long nodeMax;
  private final long userMax;
  private final Map<String, Long> users = new HashMap<>();
  private long node;

  FrameMemory(long nodeMax, long userMax) {
    this.nodeMax = nodeMax;
    this.userMax = userMax;
  }

  long nodeMax() {
    return nodeMax;
  }

  long userMax() {
    return userMax;
  }

  /**
   * Holds {@code bytes} more for a connection of {@code user} (null before signing in), unless that would pass a bound:
   * then nothing is held and the verdict says which.
   */
  Verdict hold(String user, long bytes) {
    if (node + bytes > nodeMax) {
      return Verdict.OVER_NODE;
    }
    if (user != null) {
      long held = users.getOrDefault(user, 0L);
      if (held + bytes > userMax) {
        return Verdict.OVER_USER;
      }
      users.put(user, held + bytes);
    }
    node += bytes;
    return Verdict.HELD;
  }

  /** A connection signed in: what it held before is its user's now, whatever the user's bound. */
  void signedIn(String user, long bytes) {
    if (bytes > 0) {
      users.merge(user, bytes, Long::sum);
    }
  }

  void release(String user, long bytes) {
    node -= bytes;
    if (user != null) {
      users.computeIfPresent(user, (u, held) -> held - bytes > 0 ? held - bytes : null);
    }
  }

  /** All that this node's connections hold now. */
  long held() {
    return node;
  }
}
