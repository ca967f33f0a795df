package io.quarry.llm;

import com.google.genai.types.FunctionCall;
import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Dataset;
import io.quarry.bus.DatasetClient;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chat turn: stream a model response, run the tools it calls, feed their responses back, until it
 * answers. Limits, forced answers, the context-too-large retry, token accounting, stopping and storing
 * the assistant message all live here. Everything runs on the llm verticle's event loop.
 */
final class Turn {

  private static final Logger log = LoggerFactory.getLogger(Turn.class);
  static final String CONTEXT_TOO_LARGE = "Conversation context too large. Try starting a new conversation.";
  static final String TOOL_LIMIT_INSTRUCTION = "You have reached the maximum of %d tool calls for this turn. Do not"
      + " call any more tools: answer the user now with the information you already have.";
  static final String LIMIT_NOTICE = "The daily token limit was reached, so the answer stops here.";
  static final String RESTART_ERROR = "Quarry restarted before this answer was finished. What it had written is kept;"
      + " ask again to continue.";
  static final String RESTART_NOTICE = "This answer was interrupted when the server restarted.";
  static final String SQL_LIMIT_INSTRUCTION = "The SQL has failed %d times in this turn. Do not call any more tools:"
      + " explain the error to the user in plain language and suggest what they could try.";

  /** The turn was stopped by the user. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("stopped", null, false, false);
    }
  }

  /** Gemini's answer could not be used, even when asked again; the message is what the user is told. */
  static final class Unusable extends RuntimeException {
    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  private final GeminiClient gemini;
  private final StorageClient storage;
  private final LlmSettings settings;
  private final Events events;
  private final ToolRunner tools;
  private final AnswerSaver saver;
  private final TokenBudget.Hold hold;
  final String userId;
  private final String conversationId;
  private final String assistantId;
  private final TurnRecord record = new TurnRecord();
  private final List<JsonObject> produced = new ArrayList<>();
  private final StringBuilder answer = new StringBuilder();
  private final Promise<Void> finished = Promise.promise();
  private final Supplier<Future<Void>> unlock;
  private Future<Void> unlocked;
  private List<ChatMessage> history = List.of();
  private GeminiClient.Call call;
  private long inputTokens;
  private long outputTokens;
  private int toolCalls;
  private boolean toolsOff;
  private boolean contextRetried;
  private boolean askedAgain;
  private boolean stopping;
  /** Stopped because its node is stopping, not by its user. */
  private boolean interrupted;
  private String endStatus = ChatMessage.COMPLETE;
  private String notice;
  private final long startedNanos = System.nanoTime();
  /** The answer's numbers checked against the turn's results, once it is complete. */
  private JsonObject numbers;

  Turn(GeminiClient gemini, StorageClient storage, DatasetClient datasets, Events events, LlmSettings settings,
      AnswerSaver saver, TokenBudget.Hold hold, String userId, String conversationId, String assistantId,
      Supplier<Future<Void>> unlock) {
    this.unlock = unlock;
    this.gemini = gemini;
    this.hold = hold;
    this.storage = storage;
    this.settings = settings;
    this.events = events;
    this.userId = userId;
    this.conversationId = conversationId;
    this.assistantId = assistantId;
    this.saver = saver;
    this.tools = new ToolRunner(datasets, storage, events, userId, conversationId, assistantId, record);
  }

  /**
   * Runs the turn to its end: complete, failed (chat_error sent) or stopped. The answer is saved and the
   * conversation given back before the browser hears of the end, so that it can ask again at once.
   */
  Future<Void> run() {
    saver.start(() -> answer.length() == 0 && produced.isEmpty() ? null : message(ChatMessage.STREAMING));
    storage.messages(userId, conversationId)
        .compose(messages -> {
          history = messages;
          return nextRequest();
        })
        .transform(outcome -> outcome.succeeded() ? complete()
            : outcome.cause() instanceof Stopped || stopping ? interrupted ? saveInterrupted() : saveStopped()
            : failed(outcome.cause()))
        .eventually(this::unlock)
        .onComplete(done -> {
          saver.cancel();
          finished.tryComplete();
        });
    return finished.future();
  }

  /** Cancels at once, even mid-stream; the partial answer is kept and no chat_complete is sent. */
  Future<Void> stop() {
    stopping = true;
    if (call != null) {
      call.cancel();
    }
    tools.stop();
    return finished.future();
  }

  /** Its node is stopping: it stops at once, its answer kept as interrupted, and its browser is told why. */
  Future<Void> interrupt() {
    interrupted = true;
    return stop();
  }

  Future<Void> finished() {
    return finished.future();
  }

  private Future<Void> nextRequest() {
    if (stopping) {
      return Future.failedFuture(new Stopped());
    }
    return hold.allowsRequest().compose(allowed -> allowed ? request() : overBudget());
  }

  /** Past the limit between two requests: what was answered stands; with nothing answered yet the turn fails. */
  private Future<Void> overBudget() {
    return answer.length() == 0 && produced.isEmpty()
        ? Future.failedFuture(new QuarryException(Failure.RATE_LIMITED, TokenBudget.EXCEEDED))
        : endShort(ChatMessage.COMPLETE, LIMIT_NOTICE);
  }

  private Future<Void> request() {
    return storage.datasets(userId, conversationId).compose(datasets -> {
      events.phase("generating");
      ModelResponse response = new ModelResponse(this::onText);
      long sent = System.nanoTime();
      boolean[] first = {true};
      call = gemini.stream(body(datasets), chunk -> {
        if (first[0]) {
          first[0] = false;
          LlmMetrics.firstChunk(sent);
        }
        response.add(chunk);
      });
      return call.done().transform(outcome -> recordUsage(response).transform(recorded -> outcome.succeeded()
          ? afterResponse(response) : retryOrFail(outcome.cause())));
    });
  }

  private void onText(String token) {
    if (!stopping) {
      answer.append(token);
      events.emit(ChatEvents.chatToken(conversationId, assistantId, token));
    }
  }

  private Future<Void> afterResponse(ModelResponse response) {
    if (stopping) {
      return Future.failedFuture(new Stopped());
    }
    Ending ending = Ending.of(response);
    return switch (ending.kind()) {
      case EMPTY, MALFORMED -> askAgain(ending);
      case DECLINED -> endShort(ChatMessage.DECLINED, ending.notice());
      case CUT_OFF -> {
        produced.add(response.content());
        yield endShort(ChatMessage.COMPLETE, ending.notice());
      }
      case ANSWERED -> {
        produced.add(response.content());
        yield Future.succeededFuture();
      }
      case CALLED_TOOLS -> {
        askedAgain = false;
        produced.add(response.content());
        yield runTools(response.calls()).compose(v -> nextRequest());
      }
    };
  }

  /** The same request once more (its tokens are counted like any other); a second miss ends the turn. */
  private Future<Void> askAgain(Ending ending) {
    if (askedAgain) {
      return Future.failedFuture(new Unusable(ending.notice()));
    }
    askedAgain = true;
    log.info("Gemini's response in conversation {} ended {}; asking again", conversationId, ending.kind());
    return nextRequest();
  }

  /** The answer stands as far as it got; the notice says why it ends there. */
  private Future<Void> endShort(String status, String why) {
    endStatus = status;
    notice = why;
    return Future.succeededFuture();
  }

  private Future<Void> retryOrFail(Throwable cause) {
    if (stopping) {
      return Future.failedFuture(new Stopped());
    }
    if (cause instanceof GeminiException ge && ge.contextTooLarge()) {
      if (contextRetried) {
        return Future.failedFuture(new GeminiException(400, CONTEXT_TOO_LARGE, false));
      }
      contextRetried = true;
      return nextRequest();
    }
    return Future.failedFuture(cause);
  }

  /** Tool calls run one after another; each gets a function response, executed or refused. */
  private Future<Void> runTools(List<FunctionCall> calls) {
    JsonArray responses = new JsonArray();
    Future<Void> chain = Future.succeededFuture();
    for (FunctionCall fc : calls) {
      chain = chain.compose(v -> stopping ? Future.failedFuture(new Stopped()) : runTool(fc)
          .map(response -> {
            JsonObject functionResponse = new JsonObject().put("name", fc.name().orElse("")).put("response", response);
            fc.id().ifPresent(id -> functionResponse.put("id", id));
            responses.add(new JsonObject().put("functionResponse", functionResponse));
            return null;
          }));
    }
    return chain.map(v -> {
      String instruction = limitInstruction();
      if (instruction != null) {
        responses.add(new JsonObject().put("text", instruction));
      }
      produced.add(new JsonObject().put("role", "user").put("parts", responses));
      return null;
    });
  }

  private Future<JsonObject> runTool(FunctionCall fc) {
    if (toolsOff || toolCalls >= settings.maxToolCalls()) {
      LlmMetrics.toolCall(fc.name().orElse(""), "refused");
      return Future.succeededFuture(new JsonObject().put("error", "Not executed: the tool limit for this turn is"
          + " reached. Answer with the information you already have."));
    }
    toolCalls++;
    JsonObject args = new JsonObject(fc.args().orElse(java.util.Map.of()));
    String name = fc.name().orElse("");
    return tools.run(name, args)
        .onSuccess(response -> LlmMetrics.toolCall(name, response.containsKey("error") ? "error" : "ok"));
  }

  /** Once a limit is reached, the next request forbids tools and says why (the seed's forced answer). */
  private String limitInstruction() {
    if (toolsOff) {
      return null;
    }
    if (record.sqlFailures >= settings.maxSqlRetries()) {
      toolsOff = true;
      return String.format(SQL_LIMIT_INSTRUCTION, record.sqlFailures);
    }
    if (toolCalls >= settings.maxToolCalls()) {
      toolsOff = true;
      return String.format(TOOL_LIMIT_INSTRUCTION, settings.maxToolCalls());
    }
    return null;
  }

  private JsonObject body(List<Dataset> datasets) {
    List<ContextWindow.Entry> window = ContextWindow.build(history, settings.maxMessages(),
        settings.contextBudgetTokens(), contextRetried ? settings.contextRetryDrop() : 0);
    JsonArray contents = ContextWindow.contents(window);
    produced.forEach(contents::add);
    return new JsonObject()
        .put("contents", contents)
        .put("systemInstruction", new JsonObject().put("parts", new JsonArray()
            .add(new JsonObject().put("text", SystemPrompt.build(datasets)))))
        .put("tools", Tools.JSON)
        .put("toolConfig", new JsonObject().put("functionCallingConfig",
            new JsonObject().put("mode", toolsOff ? "NONE" : "AUTO")));
  }

  /** One token_usage row per request, failed and cancelled ones included. */
  private Future<Void> recordUsage(ModelResponse response) {
    inputTokens += response.inputTokens();
    outputTokens += response.outputTokens();
    LlmMetrics.tokens(response.inputTokens(), response.outputTokens() - response.thinkingTokens(),
        response.thinkingTokens());
    return storage.recordUsage(new TokenUsage(userId, conversationId, gemini.model(), response.inputTokens(),
            response.outputTokens(), null))
        .onFailure(e -> log.warn("Token usage of conversation {} not recorded: {}", conversationId, e.getMessage()))
        .otherwiseEmpty();
  }

  /** Once: the turn's hold, its place among the running turns and its conversation's claim are given back. */
  private Future<Void> unlock() {
    if (unlocked == null) {
      unlocked = unlock.get();
    }
    return unlocked;
  }

  private Future<Void> complete() {
    LlmMetrics.turnEnded(ChatMessage.DECLINED.equals(endStatus) ? "declined" : LIMIT_NOTICE.equals(notice) ? "budget"
        : notice != null ? "cut_off" : "completed", startedNanos);
    numbers = NumberCheck.check(answer.toString(), record.results.values().stream().map(NumberCheck::values).toList());
    return save(endStatus).eventually(this::unlock).onSuccess(v -> events.emit(
        ChatEvents.chatComplete(conversationId, assistantId, inputTokens, outputTokens, notice, numbers)));
  }

  private Future<Void> saveStopped() {
    LlmMetrics.turnEnded("stopped", startedNanos);
    return save(ChatMessage.CANCELLED).eventually(this::unlock);
  }

  private Future<Void> saveInterrupted() {
    LlmMetrics.turnEnded("interrupted", startedNanos);
    notice = RESTART_NOTICE;
    return save(ChatMessage.INTERRUPTED).eventually(this::unlock)
        .onComplete(done -> events.emit(ChatEvents.chatError(conversationId, assistantId, RESTART_ERROR, null)));
  }

  private Future<Void> failed(Throwable cause) {
    String error = cause instanceof GeminiException ge ? ge.describe()
        : cause instanceof Unusable ? cause.getMessage() : "The answer failed: " + cause.getMessage();
    String details = cause instanceof GeminiException ge && !ge.timedOut() ? ge.getMessage() : null;
    log.warn("Turn of conversation {} failed: {}", conversationId, cause.getMessage());
    LlmMetrics.turnEnded(errorKind(cause), startedNanos);
    // The reply is stored even when nothing was written, saying why, so that a reload shows the question answered
    // by its error (with Retry) rather than by nothing.
    notice = error;
    return save(ChatMessage.ERROR).eventually(this::unlock)
        .onComplete(done -> events.emit(ChatEvents.chatError(conversationId, assistantId, error, details)));
  }

  /** A failure's kind, as {@code quarry_turns_total} counts it. */
  private static String errorKind(Throwable cause) {
    if (cause instanceof GeminiException ge) {
      return ge.timedOut() ? "error_timeout" : "error_gemini";
    }
    if (cause instanceof Unusable) {
      return "error_unusable";
    }
    return Failure.classify(cause) == Failure.RATE_LIMITED ? "budget" : "error_internal";
  }

  private Future<Void> save(String status) {
    return saver.finish(message(status));
  }

  /** The assistant message as it stands; its rounds end with complete exchanges only, so history stays valid. */
  private ChatMessage message(String status) {
    List<JsonObject> rounds = new ArrayList<>(produced);
    while (!rounds.isEmpty() && !ChatMessage.COMPLETE.equals(status)
        && "model".equals(rounds.get(rounds.size() - 1).getString("role"))) {
      rounds.remove(rounds.size() - 1);
    }
    return new ChatMessage(assistantId, conversationId, ChatMessage.ASSISTANT, answer.toString(),
        new JsonArray(new ArrayList<>(rounds)), record.sql.copy(), record.resultIds.copy(), record.charts.copy(),
        inputTokens, outputTokens, status, notice, null, numbers);
  }
}
