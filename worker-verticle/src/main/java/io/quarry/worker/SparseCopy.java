package io.quarry.worker;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * A local copy of a remote Parquet file that holds only some of it: a file of the remote one's exact size with
 * its footer in place and the bytes of every column fetched so far; the rest are holes, which nothing reads (see
 * {@link Placeholders}). Lives on the worker verticle's event loop.
 */
final class SparseCopy {

  /** A fetch of some columns, and how many queries still wait for it. */
  static final class Shared {
    final RangeFetch.Transfer transfer;
    int waiting;

    Shared(RangeFetch.Transfer transfer) {
      this.transfer = transfer;
    }
  }

  final Layout layout;
  final RangeFetch.Version version;
  /** Bytes of the file's end fetched with its footer. */
  private final long tailBytes;
  private final BitSet held = new BitSet();
  final Map<Integer, Shared> fetching = new HashMap<>();

  SparseCopy(Layout layout, RangeFetch.Version version, long tailBytes) {
    this.layout = layout;
    this.version = version;
    this.tailBytes = tailBytes;
  }

  /** Of these columns, those not held yet. */
  BitSet missing(BitSet wanted) {
    BitSet missing = (BitSet) wanted.clone();
    missing.andNot(held);
    return missing;
  }

  /** The columns not held, which a database binding this copy shows as placeholders. */
  BitSet unfetched() {
    BitSet all = new BitSet();
    all.set(0, layout.columns().size());
    return missing(all);
  }

  void hold(BitSet columns) {
    held.or(columns);
  }

  long heldBytes() {
    return tailBytes + ByteRange.total(layout.rangesOf(held));
  }

  /** Bytes a query that reads these columns moves: those it needs that are not held yet. */
  long toFetch(BitSet wanted) {
    return ByteRange.total(layout.rangesOf(missing(wanted)));
  }
}
