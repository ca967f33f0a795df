package io.quarry.worker.pool;

import io.quarry.bus.QueryRequest;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Which worker process takes a query. Each process has its own disk cache, so queries over the same
 * files go to the same process (rendezvous hashing on their URLs: stable while processes come and go)
 * and the files are downloaded once; only when that process is saturated does a query go to the least
 * busy one instead.
 */
final class Affinity {

  private Affinity() {
  }

  /** {@code busyAt}: queries a process runs at once; from there on, a less busy process is preferred. */
  static Optional<Member> choose(List<Member> ready, QueryRequest query, int busyAt) {
    String key = String.join("\n", new TreeSet<>(query.tables().values()));
    Comparator<Member> byAffinity = Comparator.comparingInt((Member p) -> score(key, p.slot())).reversed();
    Optional<Member> preferred = ready.stream().min(byAffinity);
    if (preferred.isEmpty() || preferred.get().load() < busyAt) {
      return preferred;
    }
    return ready.stream().min(Comparator.comparingInt(Member::load).thenComparing(byAffinity));
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
