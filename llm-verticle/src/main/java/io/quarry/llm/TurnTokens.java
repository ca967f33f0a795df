package io.quarry.llm;

import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turn's tokens: its hold on its user's budget, asked before each request, and what its requests used, counted
 * for its message and recorded as one token_usage row per request, failed and cancelled ones included.
 */
final class TurnTokens {

  private static final Logger log = LoggerFactory.getLogger(TurnTokens.class);

  private final TokenBudget.Hold hold;
  private final StorageClient storage;
  private final String model;
  private final String userId;
  private final String conversationId;
  private long input;
  private long output;

  TurnTokens(TurnContext context, TurnClaim claim, TokenBudget.Hold hold) {
    this.hold = hold;
    this.storage = context.storage();
    this.model = context.model().id();
    this.userId = claim.userId();
    this.conversationId = claim.conversationId();
  }

  /** A continuation's message counts the tokens of the answer it goes on from too. */
  void startFrom(long inputTokens, long outputTokens) {
    input = inputTokens;
    output = outputTokens;
  }

  /** See {@link TokenBudget.Hold#allowsRequest()}. */
  Future<Boolean> allowsRequest() {
    return hold.allowsRequest();
  }

  /** Counts a response's tokens; completes once they are recorded, or could not be (which is only logged). */
  Future<Void> count(ModelResponse response) {
    input += response.inputTokens();
    output += response.outputTokens();
    LlmMetrics.tokens(response.inputTokens(), response.outputTokens() - response.thinkingTokens(),
        response.thinkingTokens());
    return storage.recordUsage(new TokenUsage(userId, conversationId, model, response.inputTokens(),
            response.outputTokens(), null, response.estimated()))
        .onFailure(e -> log.warn("Token usage of conversation {} not recorded: {}", conversationId, e.getMessage()))
        .otherwiseEmpty();
  }

  long input() {
    return input;
  }

  long output() {
    return output;
  }
}
