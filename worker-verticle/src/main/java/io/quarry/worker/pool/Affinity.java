package io.quarry.worker.pool;

import io.quarry.bus.QueryRequest;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which worker process takes a query. Each process has its own disk cache and its own databases, so queries
 * over the same files go to the same process (rendezvous hashing on their URLs: stable while processes come
 * and go) and the files are downloaded, and their database made, once; when that process has no room, the
 * next one in the same order takes them, so a second copy is made on one other process, not on all of them.
 */
final class Affinity {

  private Affinity() {
  }

  /** Of the members with room, the first in this query's order. */
  static Optional<Member> choose(List<Member> open, QueryRequest query) {
    String key = String.join("\n", new TreeSet<>(query.tables().values()));
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
