package io.quarry.bus;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * A worker's answer on {@code worker.query.run}: one line of JSON with everything but the rows, then the
 * rows' JSON text. The node that receives it reads the first line and keeps the rows as text, so a
 * result crosses the process boundary without being parsed into a tree and encoded again.
 */
public final class WorkerReply {

  private static final byte NEWLINE = '\n';

  private WorkerReply() {
  }

  /** {@code servedBy} names the worker (a node and process) that ran the query. */
  public static Buffer encode(QueryResult result, String servedBy) {
    JsonObject header = result.toJson().put("row_count", result.rows().size()).put("served_by", servedBy);
    header.remove("rows");
    // Compact JSON never holds a raw newline (strings escape it), so the first one ends the header.
    return header.toBuffer().appendByte(NEWLINE).appendString(result.rows().text());
  }

  /** The same reply with a note added to its header; the rows' text is not copied into a new string. */
  public static Buffer noted(Buffer reply, String note) {
    return with(reply, "note", note);
  }

  /** The same reply with a field of its header set; the rows' text is not copied into a new string. */
  public static Buffer with(Buffer reply, String key, Object value) {
    int end = headerEnd(reply);
    return header(reply, end).put(key, value).toBuffer().appendBuffer(reply, end, reply.length() - end);
  }

  public static QueryResult decode(Buffer reply) {
    int end = headerEnd(reply);
    JsonObject header = header(reply, end);
    RowsJson rows = RowsJson.text(reply.getString(end + 1, reply.length()), header.getInteger("row_count"));
    return QueryResult.fromJson(header.put("rows", rows));
  }

  /** Everything but the rows, with {@code served_by}. */
  public static JsonObject header(Buffer reply) {
    return header(reply, headerEnd(reply));
  }

  private static JsonObject header(Buffer reply, int end) {
    return new JsonObject(reply.getBuffer(0, end));
  }

  private static int headerEnd(Buffer reply) {
    for (int i = 0; i < reply.length(); i++) {
      if (reply.getByte(i) == NEWLINE) {
        return i;
      }
    }
    throw new IllegalArgumentException("A worker reply has a header line, then the rows");
  }
}
