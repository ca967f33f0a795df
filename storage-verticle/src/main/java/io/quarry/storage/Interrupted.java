package io.quarry.storage;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.bus.Timestamps;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a server that died left half done, settled when storage starts: an answer still marked as streaming
 * keeps its text and says it was interrupted; a dataset still loading fails with a message that offers Retry,
 * instead of spinning for ever.
 */
final class Interrupted {

  private static final Logger log = LoggerFactory.getLogger(Interrupted.class);
  static final String ANSWER = "This answer was interrupted when the server stopped.";
  static final String DATASET = "Adding this dataset was interrupted when the server stopped; retry to add it again";

  private Interrupted() {
  }

  static Future<Void> settle(Db db) {
    return db.tx(conn -> db.run(conn, "UPDATE messages SET status = ?, notice = ? WHERE status = ?",
            ChatMessage.INTERRUPTED, ANSWER, ChatMessage.STREAMING)
        .compose(answers -> db.run(conn, "UPDATE datasets SET status = ?, error_message = ?, updated_at = ?"
                + " WHERE status = ?", Dataset.ERROR, DATASET, Timestamps.now(), Dataset.LOADING)
            .map(datasets -> {
              if (answers.rowCount() + datasets.rowCount() > 0) {
                log.warn("The server stopped during {} answer(s) and {} dataset add(s); they are marked interrupted",
                    answers.rowCount(), datasets.rowCount());
              }
              return (Void) null;
            })));
  }
}
