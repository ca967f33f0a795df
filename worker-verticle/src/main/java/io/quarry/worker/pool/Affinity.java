package io.quarry.worker.pool;

import io.quarry.bus.QueryRequest;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which worker process takes a query. Each process has its own disk cache and its own databases, so a
 * conversation's work goes to one process (rendezvous hashing on its id: stable while processes come and go): the
 * check of a file being added starts the copy its queries then read, and adding a dataset does not move the
 * conversation to a process that holds none of its files. Work for no conversation goes by the URLs it reads, so the
 * same files meet the same copies. When that process has no room, the next one in the same order takes it, so a
 * second copy is made on one other process, not on all of them.
 */
final class Affinity {

  private Affinity() {
  }

  /** Of the members with room, the first in this query's order. */
  static Optional<Member> choose(List<Member> open, QueryRequest query) {
    String key = query.conversationId().isBlank() ? String.join("\n", new TreeSet<>(query.tables().values()))
        : query.conversationId();
    return open.stream().max(Comparator.comparingInt((Member p) -> score(key, p.slot())));
  }

  /** A well-mixed hash of the key and the slot (String.hashCode alone differs too little between slots). */
  private static int score(String key, int slot) {
    long h = key.hashCode() * 0x9E3779B97F4A7C15L + slot * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    return (int) h;
  }
}
