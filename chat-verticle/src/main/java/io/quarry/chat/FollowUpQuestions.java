package io.quarry.chat;

import io.quarry.bus.LlmClient;
import io.quarry.bus.LlmOps.FollowUps;
import io.quarry.bus.QuarryException;
import io.vertx.core.Future;

/**
 * The model's next questions after an answer, asked for by the page and by programs alike: only where
 * {@code chat.followUps} is {@code model}; elsewhere the page makes its own, and a program hears why it gets none.
 */
final class FollowUpQuestions {

  static final String SCHEMA_ONLY = "This server suggests next questions without the model (chat.followUps=schema)";

  private final LlmClient llm;
  private final ChatSettings.FollowUpSource source;

  FollowUpQuestions(LlmClient llm, ChatSettings.FollowUpSource source) {
    this.llm = llm;
    this.source = source;
  }

  Future<FollowUps> ask(String userId, String conversationId, String messageId) {
    if (source != ChatSettings.FollowUpSource.MODEL) {
      return Future.failedFuture(QuarryException.conflict(SCHEMA_ONLY));
    }
    return llm.followUps(userId, conversationId, messageId);
  }
}
