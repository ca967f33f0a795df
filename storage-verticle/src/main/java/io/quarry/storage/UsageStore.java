package io.quarry.storage;

import io.quarry.bus.StorageOps.RecordUsage;
import io.quarry.bus.StorageOps.UsageSince;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import java.util.ArrayList;
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

  Future<UsageWindow> window(UsageSince request) {
    String userId = request.userId();
    String since = request.since();
    return db.run("SELECT created_at, input_tokens, output_tokens, estimated FROM token_usage WHERE user_id = ?"
            + " AND created_at >= ? ORDER BY created_at, id", userId, since)
        .map(rows -> {
          long input = 0;
          long output = 0;
          String oldest = null;
          boolean estimated = false;
          List<UsageWindow.Entry> entries = new ArrayList<>();
          for (Row row : rows) {
            input += row.getLong("input_tokens");
            output += row.getLong("output_tokens");
            oldest = oldest == null ? row.getString("created_at") : oldest;
            estimated = estimated || row.getInteger("estimated") != 0;
            entries.add(new UsageWindow.Entry(row.getString("created_at"),
                row.getLong("input_tokens") + row.getLong("output_tokens")));
          }
          return new UsageWindow(input, output, oldest, entries, estimated);
        });
  }
}
