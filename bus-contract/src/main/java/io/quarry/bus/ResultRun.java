package io.quarry.bus;

import io.vertx.core.json.JsonObject;

/**
 * A stored result the user ran themselves, so that a reload shows it where it was made: an answer's SQL edited and
 * run again (under that answer), or a query of the SQL runner (in the conversation, in time order). Results of the
 * model's queries, and those a table's sort runs, have none.
 *
 * @param origin    {@link #EDITED} or {@link #RUNNER}
 * @param messageId the answer whose SQL was edited; null for the SQL runner
 */
public record ResultRun(String resultId, String conversationId, String origin, String messageId, String createdAt) {

  public static final String EDITED = "edited";
  public static final String RUNNER = "runner";

  public static boolean knownOrigin(String origin) {
    return EDITED.equals(origin) || RUNNER.equals(origin);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put(Keys.RESULT_ID, resultId)
        .put(Keys.CONVERSATION_ID, conversationId)
        .put("origin", origin)
        .put(Keys.MESSAGE_ID, messageId)
        .put("created_at", createdAt);
  }

  public static ResultRun fromJson(JsonObject json) {
    return new ResultRun(json.getString(Keys.RESULT_ID), json.getString(Keys.CONVERSATION_ID),
        json.getString("origin"), json.getString(Keys.MESSAGE_ID), json.getString("created_at"));
  }
}
