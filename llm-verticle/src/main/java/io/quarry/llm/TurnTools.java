package io.quarry.llm;

import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * The turn's tool calls, under its limits: once a limit is reached, calls are refused and the next request forbids
 * tools and says why (the seed's forced answer). What the tools did is kept in the turn's {@link TurnRecord}.
 */
final class TurnTools {

  private static final String TOOL_LIMIT_INSTRUCTION = "You have reached the maximum of %d tool calls for this turn. Do not"
      + " call any more tools: answer the user now with the information you already have.";
  private static final String SQL_LIMIT_INSTRUCTION = "The SQL has failed %d times in this turn. Do not call any more tools:"
      + " explain the error to the user in plain language and suggest what they could try.";

  private final TurnRecord record = new TurnRecord();
  private final ToolRunner runner;
  private final LlmSettings settings;
  private int calls;
  private boolean off;
  private boolean stopped;

  TurnTools(TurnContext context, TurnClaim claim, Events events) {
    this.runner = new ToolRunner(context.datasets(), context.storage(), events, claim.userId(), claim.conversationId(),
        claim.messageId(), record);
    this.settings = context.settings();
  }

  TurnRecord record() {
    return record;
  }

  /** A limit was reached: the requests that follow allow no tool. */
  boolean off() {
    return off;
  }

  /** The turn stopped: no further call runs, and the query running, if any, stops too. */
  void stop() {
    stopped = true;
    runner.stop();
  }

  /**
   * Runs the calls one after another, each answered by a function response, executed or refused; completes with the
   * round of those responses, ended by the instruction of a limit just reached.
   */
  Future<JsonObject> run(List<ToolCall> toolCalls) {
    JsonArray responses = new JsonArray();
    Future<Void> chain = Future.succeededFuture();
    for (ToolCall call : toolCalls) {
      chain = chain.compose(v -> stopped ? Future.failedFuture(new Turn.Stopped()) : run(call)
          .map(response -> {
            JsonObject functionResponse = new JsonObject().put("name", call.name()).put("response", response);
            if (call.id() != null) {
              functionResponse.put("id", call.id());
            }
            responses.add(new JsonObject().put("functionResponse", functionResponse));
            return null;
          }));
    }
    return chain.map(v -> {
      String instruction = limitInstruction();
      if (instruction != null) {
        responses.add(new JsonObject().put("text", instruction));
      }
      return new JsonObject().put("role", "user").put("parts", responses);
    });
  }

  private Future<JsonObject> run(ToolCall call) {
    if (off || calls >= settings.maxToolCalls()) {
      LlmMetrics.toolCall(call.name(), "refused");
      return Future.succeededFuture(new JsonObject().put("error", "Not executed: the tool limit for this turn is"
          + " reached. Answer with the information you already have."));
    }
    calls++;
    String name = call.name();
    return runner.run(name, call.args())
        .onSuccess(response -> LlmMetrics.toolCall(name, response.containsKey("error") ? "error" : "ok"));
  }

  /** The instruction for the limit this round reached, once; null while under both. */
  private String limitInstruction() {
    if (off) {
      return null;
    }
    if (record.sqlFailures >= settings.maxSqlRetries()) {
      off = true;
      return String.format(SQL_LIMIT_INSTRUCTION, record.sqlFailures);
    }
    if (calls >= settings.maxToolCalls()) {
      off = true;
      return String.format(TOOL_LIMIT_INSTRUCTION, settings.maxToolCalls());
    }
    return null;
  }
}
