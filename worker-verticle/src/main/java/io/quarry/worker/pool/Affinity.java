package io.quarry.worker.pool;

import io.quarry.bus.QueryRequest;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which worker process takes a query. Each process has its own disk cache and its own databases, so a
 * conversation's work goes to one process: the check of a file being added starts the copy its queries then read, and
 * adding a dataset does not move the conversation to a process that holds none of its files. Work for no conversation
 * goes by the URLs it reads, so the same files meet the same copies. Work goes where the same key's work last ran
 * while that process has room, so a process that becomes ready later does not draw conversations away from their
 * copies; a key seen for the first time, or whose process has no room, goes by rendezvous hashing among those with
 * room, so a second copy is made on one other process, not on all of them. Under load a waiting query waits for its
 * process while the others have waiting queries of their own that came soon after it ({@link Placement#drain}).
 * Lives on its pool's context only.
 */
final class Affinity {

  /** Keys remembered, the least recently placed forgotten first: a forgotten key falls back to rendezvous hashing. */
  static final int REMEMBERED = 4_096;

  /** Each key's process (its slot), by the key's {@link #hash}. */
  private final Map<Long, Integer> homes = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
      return size() > REMEMBERED;
    }
  };

  /** Of the members with room, where this query's key last ran, else the first in its order; remembered. */
  Optional<Member> choose(List<Member> open, QueryRequest query) {
    long key = hash(key(query));
    Integer home = homes.get(key);
    Optional<Member> chosen = open.stream().filter(m -> home != null && m.slot() == home).findFirst()
        .or(() -> open.stream().max(Comparator.comparingInt((Member p) -> score(key, p.slot()))));
    chosen.ifPresent(member -> homes.put(key, member.slot()));
    return chosen;
  }

  /**
   * The slot where this query's key last ran, or null when none is remembered. Asked of a waiting query, which is about
   * to be placed, it counts as a use of the key: the key is forgotten after those less recently placed or asked of.
   */
  Integer home(QueryRequest query) {
    return homes.get(hash(key(query)));
  }

  private static String key(QueryRequest query) {
    return query.conversationId().isBlank() ? String.join("\n", new TreeSet<>(query.tables().values()))
        : query.conversationId();
  }

  /**
   * FNV-1a over the key's characters: what both the order and the memory go by (a URL set's key may be long, its
   * hash is not; a rare collision only costs a preference, not a result).
   */
  private static long hash(String key) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < key.length(); i++) {
      h = (h ^ key.charAt(i)) * 0x100000001b3L;
    }
    return h;
  }

  /** The key's rank for a slot, well mixed, so that each slot orders the keys differently. */
  private static int score(long key, int slot) {
    long h = key + slot * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }
}
