package io.quarry.worker;

import io.vertx.core.Future;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The cache's sparse fetching: the copies that hold only some columns of their file, and the fetches of the columns
 * queries need into them. Queries needing the same columns share one fetch, cancelled once none waits for it. Lives on
 * the worker verticle's event loop.
 */
final class SparseCopies {

  /** Ranges closer than this are fetched in one request. */
  private static final long GAP_BYTES = 256 * 1024;

  /** Bytes one query has asked to move, per URL, against {@link ParquetCache.Settings#maxQueryBytes}. */
  static final class Budget {
    private final Map<String, Long> used = new HashMap<>();
  }

  private final Map<Path, SparseCopy> sparse = new HashMap<>();
  private final RangeFetch ranges;
  private final Downloads downloads;
  private final long maxQueryBytes;
  private final CacheFailures failures;
  private final Consumer<Path> grew;
  private final BiConsumer<String, Path> lost;

  /**
   * @param grew told of a copy that now holds more bytes
   * @param lost told of a copy no longer to be used: its file changed, or a full disk left bytes in it it does not hold
   */
  SparseCopies(RangeFetch ranges, Downloads downloads, long maxQueryBytes, CacheFailures failures, Consumer<Path> grew,
      BiConsumer<String, Path> lost) {
    this.ranges = ranges;
    this.downloads = downloads;
    this.maxQueryBytes = maxQueryBytes;
    this.failures = failures;
    this.grew = grew;
    this.lost = lost;
  }

  void add(Path file, SparseCopy copy) {
    sparse.put(file, copy);
  }

  /** The file leaves the cache: fetches into it stop. */
  void remove(Path file) {
    SparseCopy copy = sparse.remove(file);
    if (copy != null) {
      copy.fetching.values().forEach(shared -> shared.transfer.cancel(new IllegalStateException("Evicted")));
    }
  }

  /** Whether the file holds every column {@code reads} needs of it (a whole file holds them all). */
  boolean holds(Path file, Reads reads) {
    SparseCopy copy = sparse.get(file);
    return copy == null || copy.missing(reads.columnsOf(copy.layout.columns())).isEmpty();
  }

  /** The columns of a file its copy does not hold, which a database shows as placeholders (none for a whole file). */
  BitSet unfetched(Path file) {
    SparseCopy copy = sparse.get(file);
    return copy == null ? new BitSet() : copy.unfetched();
  }

  /** The bytes a copy holds: what was fetched of a sparse one, {@code size} for a whole one. */
  long heldBytes(Path file, long size) {
    SparseCopy copy = sparse.get(file);
    return copy == null ? size : copy.heldBytes();
  }

  /** See {@link ParquetCache#columns}. */
  Future<Void> columns(Map<String, String> tables, Map<String, Path> files, Function<Layout, BitSet> wanted,
      Budget budget, Future<?> gaveUp) {
    List<Future<Void>> fetches = new ArrayList<>();
    for (Map.Entry<String, Path> table : files.entrySet()) {
      SparseCopy copy = sparse.get(table.getValue());
      String url = tables.get(table.getKey());
      if (copy == null || url == null) {
        continue;
      }
      BitSet want = wanted.apply(copy.layout);
      BitSet missing = copy.missing(want);
      if (missing.isEmpty()) {
        continue;
      }
      long total = budget.used.getOrDefault(url, 0L) + copy.toFetch(want);
      if (total > maxQueryBytes) {
        return Future.failedFuture(failures.overQueryLimit(url, total, copy.version.size()));
      }
      budget.used.put(url, total);
      fetches.addAll(join(url, table.getValue(), copy, missing, gaveUp));
    }
    return Future.all(fetches).mapEmpty();
  }

  private List<Future<Void>> join(String url, Path file, SparseCopy copy, BitSet missing, Future<?> gaveUp) {
    Set<SparseCopy.Shared> joined = new HashSet<>();
    BitSet fresh = new BitSet();
    missing.stream().forEach(column -> {
      SparseCopy.Shared running = copy.fetching.get(column);
      if (running != null) {
        joined.add(running);
      } else {
        fresh.set(column);
      }
    });
    if (!fresh.isEmpty()) {
      joined.add(start(url, file, copy, fresh));
    }
    List<Future<Void>> waits = new ArrayList<>();
    for (SparseCopy.Shared shared : joined) {
      shared.waiting++;
      gaveUp.onComplete(given -> {
        if (--shared.waiting == 0) {
          shared.transfer.cancel(new TimeoutException("Nobody waits for this fetch any more"));
        }
      });
      waits.add(shared.transfer.future().recover(e -> Future.failedFuture(failures.explain(url, e))));
    }
    return waits;
  }

  private SparseCopy.Shared start(String url, Path file, SparseCopy copy, BitSet columns) {
    List<ByteRange> requests = ByteRange.requests(copy.layout.rangesOf(columns), GAP_BYTES, RangeFetch.PIECE_BYTES);
    Downloads.Download progress = downloads.started(url, ByteRange.total(requests));
    SparseCopy.Shared shared = new SparseCopy.Shared(ranges.into(copy.version, file, requests, progress::received));
    columns.stream().forEach(column -> copy.fetching.put(column, shared));
    shared.transfer.future().onComplete(done -> {
      columns.stream().forEach(column -> copy.fetching.remove(column, shared));
      downloads.finished(url, progress);
      if (done.succeeded()) {
        copy.hold(columns);
        grew.accept(file);
      } else if (done.cause() instanceof RangeFetch.Changed || CacheFailures.diskFull(done.cause())) {
        // A full disk: what the failed fetch wrote is not held but takes space, which only deleting the copy gives back.
        lost.accept(url, file);
      }
    });
    return shared;
  }
}
