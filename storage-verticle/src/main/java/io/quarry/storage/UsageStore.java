package io.quarry.storage;

import io.quarry.bus.StorageOps.RecordUsage;
import io.quarry.bus.StorageOps.UsageSince;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.util.List;

/** Token usage: one row per model request, summed over a rolling window. */
final class UsageStore {

  private final Db db;

  UsageStore(Db db) {
    this.db = db;
  }

  /** A second delivery of a record (its request id) counts nothing more. */
  Future<Void> record(RecordUsage request) {
    TokenUsage u = request.usage();
    return db.run("INSERT INTO token_usage (user_id, conversation_id, model_name, input_tokens, output_tokens,"
                + " created_at, request_id, estimated) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (request_id) DO NOTHING",
            u.userId(), u.conversationId(), u.modelName() == null ? "unknown" : u.modelName(), u.inputTokens(),
            u.outputTokens(), u.createdAt() == null ? Timestamps.now() : u.createdAt(), Db.idOr(request.requestId()),
            u.estimated() ? 1 : 0)
        .mapEmpty();
  }

  /** The window's totals, summed by the database; its uses listed as well when the total reaches what was asked. */
  Future<UsageWindow> window(UsageSince request) {
    String userId = request.userId();
    String since = request.since();
    return db.run("SELECT COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0),"
            + " MIN(created_at), COALESCE(MAX(estimated), 0) FROM token_usage WHERE user_id = ? AND created_at >= ?",
            userId, since)
        .compose(rows -> {
          Row totals = rows.iterator().next();
          long input = totals.getLong(0);
          long output = totals.getLong(1);
          String oldest = totals.getString(2);
          boolean estimated = totals.getLong(3) != 0;
          if (input + output < request.listFrom()) {
            return Future.succeededFuture(new UsageWindow(input, output, oldest, List.of(), estimated));
          }
          return entries(userId, since).map(entries -> new UsageWindow(input, output, oldest, entries, estimated));
        });
  }

  private Future<List<UsageWindow.Entry>> entries(String userId, String since) {
    return db.run("SELECT created_at, input_tokens + output_tokens FROM token_usage WHERE user_id = ?"
            + " AND created_at >= ? ORDER BY created_at, id", userId, since)
        .map(rows -> Db.each(rows, row -> new UsageWindow.Entry(row.getString(0), row.getLong(1))));
  }
}
