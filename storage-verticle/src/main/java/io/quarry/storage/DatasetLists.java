package io.quarry.storage;

import io.quarry.bus.Dataset;
import io.vertx.core.Future;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Saves a SQLite read from every query: the look-up of a conversation's tables, which would run while the
 * query's scan needs the CPU, is answered from the lists of the 1,024 most recently used conversations. It
 * stays correct because storage is the only writer of its database, so it sees every change: a write to a
 * conversation's datasets drops that conversation's list when it starts and when it ends, and a list read
 * from the database is kept only if no such write started or ended while it was read. With several storage
 * nodes (PostgreSQL) no node sees every write, so nothing is kept: every list is read. Touched on the storage
 * verticle's event loop only.
 */
final class DatasetLists {

  private static final int MAX_CONVERSATIONS = 1_024;

  private record Entry(String userId, List<Dataset> reply) {
  }

  private final Map<String, Entry> lists = new LinkedHashMap<>(64, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
      return size() > MAX_CONVERSATIONS;
    }
  };
  /** Writes started or ended so far: a read that sees this change while it runs may have read either side. */
  private long writes;
  private final boolean keep;

  /** @param keep whether this storage node is its database's only writer */
  DatasetLists(boolean keep) {
    this.keep = keep;
  }

  /** The list as kept, when its conversation is the user's; else {@code read}, kept if nothing was written meanwhile. */
  Future<List<Dataset>> list(String userId, String conversationId, Supplier<Future<List<Dataset>>> read) {
    if (!keep) {
      return read.get();
    }
    Entry kept = lists.get(conversationId);
    if (kept != null && kept.userId().equals(userId)) {
      return Future.succeededFuture(kept.reply());
    }
    long writesBefore = writes;
    return read.get().onSuccess(reply -> {
      if (writes == writesBefore) {
        lists.put(conversationId, new Entry(userId, reply));
      }
    });
  }

  /** Runs a write that may change the conversation's datasets (or delete it). */
  <T> Future<T> write(String conversationId, Supplier<Future<T>> work) {
    forget(conversationId);
    return work.get().andThen(done -> forget(conversationId));
  }

  private void forget(String conversationId) {
    lists.remove(conversationId);
    writes++;
  }
}
