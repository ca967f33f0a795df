package io.quarry.worker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Bytes {@code from} (inclusive) to {@code to} (exclusive) of a remote file. */
record ByteRange(long from, long to) {

  ByteRange {
    if (from < 0 || to < from) {
      throw new IllegalArgumentException("Not a byte range: " + from + ".." + to);
    }
  }

  long length() {
    return to - from;
  }

  /** The HTTP {@code Range} header's value for these bytes. */
  String header() {
    return "bytes=" + from + "-" + (to - 1);
  }

  /**
   * The requests that fetch these ranges: overlapping or adjacent ranges, and those at most {@code gap} bytes
   * apart (one request costs more than a small gap), are joined, then cut into pieces of at most {@code piece}
   * bytes so that they can be fetched in parallel and a failed one costs little.
   */
  static List<ByteRange> requests(List<ByteRange> ranges, long gap, long piece) {
    List<ByteRange> sorted = ranges.stream().filter(r -> r.length() > 0)
        .sorted(Comparator.comparingLong(ByteRange::from)).toList();
    List<ByteRange> joined = new ArrayList<>();
    for (ByteRange range : sorted) {
      ByteRange last = joined.isEmpty() ? null : joined.get(joined.size() - 1);
      if (last != null && range.from() <= last.to() + gap) {
        joined.set(joined.size() - 1, new ByteRange(last.from(), Math.max(last.to(), range.to())));
      } else {
        joined.add(range);
      }
    }
    List<ByteRange> pieces = new ArrayList<>();
    for (ByteRange range : joined) {
      for (long from = range.from(); from < range.to(); from += Math.min(piece, range.to() - from)) {
        pieces.add(new ByteRange(from, from + Math.min(piece, range.to() - from)));
      }
    }
    return pieces;
  }

  static long total(List<ByteRange> ranges) {
    return ranges.stream().mapToLong(ByteRange::length).sum();
  }
}
