package io.quarry.llm;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.ChatMessage;
import io.quarry.bus.Failure;
import io.quarry.bus.QuarryException;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TurnClaim;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One chat turn: stream a model response, run the tools it calls, feed their responses back, until it answers. Here
 * is the loop and how it ends (forced answers, asking again, the context-too-large retry, stopping); what it builds
 * up lives in its parts: the {@link AnswerStream}, the {@link TurnTools}, the {@link TurnTokens}, the
 * {@link TurnPrompt} and the {@link AnswerSaver}. Everything runs on the llm verticle's event loop.
 */
final class Turn {

  private static final Logger log = LoggerFactory.getLogger(Turn.class);
  static final String CONTEXT_TOO_LARGE = "Conversation context too large. Try starting a new conversation.";
  static final String LIMIT_NOTICE = "The daily token limit was reached, so the answer stops here.";
  static final String RESTART_ERROR = "Quarry restarted before this answer was finished. What it had written is kept;"
      + " ask again to continue.";
  static final String RESTART_NOTICE = "This answer was interrupted when the server restarted.";
  static final String UNSAVED = "This answer could not be saved, so a reload will not show it; ask again to keep it.";

  /** The turn was stopped by the user. */
  static final class Stopped extends RuntimeException {
    Stopped() {
      super("stopped", null, false, false);
    }
  }

  /** The model's answer could not be used, even when asked again; the message is what the user is told. */
  static final class Unusable extends RuntimeException {
    Unusable(String message) {
      super(message, null, false, false);
    }
  }

  /** How an answer that completes ends: whole, or short with a notice that says why it ends there. */
  private record Completion(String status, String notice) {
    static final Completion WHOLE = new Completion(ChatMessage.COMPLETE, null);

    /** As {@code quarry_turns_total} counts it. */
    String kind() {
      return ChatMessage.DECLINED.equals(status) ? "declined" : LIMIT_NOTICE.equals(notice) ? "budget"
          : notice != null ? "cut_off" : "completed";
    }
  }

  private final Model model;
  private final StorageClient storage;
  private final Events events;
  final String userId;
  private final String conversationId;
  private final String assistantId;
  /** The cut-off answer this turn continues; null for a question's turn. */
  private final ChatMessage continued;
  private final AnswerStream stream;
  private final TurnTools tools;
  private final TurnTokens tokens;
  private final TurnPrompt prompt;
  private final AnswerSaver saver;
  private final Supplier<Future<Void>> release;
  private final Promise<Void> finished = Promise.promise();
  private final long startedNanos = System.nanoTime();
  private Future<Void> released;
  private Model.Call call;
  private Completion completion = Completion.WHOLE;
  private boolean askedAgain;
  private boolean stopping;
  /** Stopped because its node is stopping, not by its user. */
  private boolean interrupted;

  Turn(TurnContext context, TurnRequest request) {
    TurnClaim claim = request.claim();
    this.model = context.model();
    this.storage = context.storage();
    this.events = request.events();
    this.userId = claim.userId();
    this.conversationId = claim.conversationId();
    this.assistantId = claim.messageId();
    this.continued = request.continued();
    this.stream = continued == null ? new AnswerStream(events, assistantId) : new AnswerStream(events, continued);
    this.tools = new TurnTools(context, claim, events);
    this.tokens = new TurnTokens(context, claim, request.hold());
    this.prompt = new TurnPrompt(context.settings(), continued != null);
    if (continued != null) {
      tools.record().startFrom(continued);
      tokens.startFrom(continued.inputTokens(), continued.outputTokens());
    }
    this.saver = new AnswerSaver(context.vertx(), storage, userId, context.settings().checkpointMs());
    this.release = request.release();
  }

  /**
   * Runs the turn to its end: complete, failed (chat_error sent) or stopped. The answer is saved and the
   * conversation given back before the browser hears of the end, so that it can ask again at once.
   */
  Future<Void> run() {
    saver.start(() -> stream.isEmpty() ? null : message(ChatMessage.STREAMING, null, null));
    priorResults().compose(v -> storage.messages(userId, conversationId))
        .compose(messages -> {
          prompt.history(messages);
          return nextRequest();
        })
        .transform(outcome -> outcome.succeeded() ? complete()
            : outcome.cause() instanceof Stopped || stopping ? interrupted ? saveInterrupted() : saveStopped()
            : failed(outcome.cause()))
        .eventually(this::release)
        .onComplete(done -> {
          saver.cancel();
          finished.tryComplete();
        });
    return finished.future();
  }

  /**
   * A continuation's numbers are checked against the results of the answer it goes on from, read again from storage;
   * one that is gone (its dataset removed) is left out.
   */
  private Future<Void> priorResults() {
    if (continued == null || continued.resultIds() == null) {
      return Future.succeededFuture();
    }
    return Future.join(continued.resultIds().stream().map(id -> storage.result(userId, (String) id)
            .onSuccess(r -> tools.record().results.putIfAbsent(r.id(), r))).toList())
        .<Void>mapEmpty().otherwiseEmpty();
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
    return tokens.allowsRequest().compose(allowed -> allowed ? request() : overBudget());
  }

  /** Past the limit between two requests: what was answered stands; with nothing answered yet the turn fails. */
  private Future<Void> overBudget() {
    return stream.isEmpty()
        ? Future.failedFuture(new QuarryException(Failure.RATE_LIMITED, TokenBudget.EXCEEDED))
        : endShort(ChatMessage.COMPLETE, LIMIT_NOTICE);
  }

  private Future<Void> request() {
    return storage.datasets(userId, conversationId).compose(datasets -> {
      events.phase("generating");
      ModelResponse response = new ModelResponse(this::onText);
      long sent = System.nanoTime();
      response.onFirst(() -> LlmMetrics.firstChunk(sent));
      call = model.stream(prompt.request(datasets, stream, tools.off()), response);
      return call.done().transform(outcome -> tokens.count(response).transform(counted -> outcome.succeeded()
          ? afterResponse(response) : retryOrFail(outcome.cause())));
    });
  }

  /** A stopped turn's cancelled stream may still hand on text that arrived: the user no longer sees it. */
  private void onText(String token) {
    if (!stopping) {
      stream.token(token);
    }
  }

  private Future<Void> afterResponse(ModelResponse response) {
    if (stopping) {
      return Future.failedFuture(new Stopped());
    }
    Ending ending = Ending.of(response, model.speaker());
    return switch (ending.kind()) {
      case EMPTY, MALFORMED -> askAgain(ending);
      case DECLINED -> endShort(ChatMessage.DECLINED, ending.notice());
      case CUT_OFF -> {
        stream.add(response.content());
        yield endShort(ChatMessage.COMPLETE, ending.notice());
      }
      case ANSWERED -> {
        stream.add(response.content());
        yield Future.succeededFuture();
      }
      case CALLED_TOOLS -> {
        askedAgain = false;
        stream.add(response.content());
        yield tools.run(response.calls()).compose(responses -> {
          stream.add(responses);
          return nextRequest();
        });
      }
    };
  }

  /** The same request once more (its tokens are counted like any other); a second miss ends the turn. */
  private Future<Void> askAgain(Ending ending) {
    if (askedAgain) {
      return Future.failedFuture(new Unusable(ending.notice()));
    }
    askedAgain = true;
    log.info("The model's response in conversation {} ended {}; asking again", conversationId, ending.kind());
    return nextRequest();
  }

  /** The answer stands as far as it got; the notice says why it ends there. */
  private Future<Void> endShort(String status, String why) {
    completion = new Completion(status, why);
    return Future.succeededFuture();
  }

  private Future<Void> retryOrFail(Throwable cause) {
    if (stopping) {
      return Future.failedFuture(new Stopped());
    }
    if (cause instanceof ModelException me && me.contextTooLarge()) {
      return prompt.shorten() ? nextRequest() : Future.failedFuture(me.saying(CONTEXT_TOO_LARGE));
    }
    return Future.failedFuture(cause);
  }

  /** Once: the turn's hold, its place among the running turns and its conversation's claim are given back. */
  private Future<Void> release() {
    if (released == null) {
      released = release.get();
    }
    return released;
  }

  private Future<Void> complete() {
    LlmMetrics.turnEnded(completion.kind(), startedNanos);
    JsonObject numbers = NumberCheck.check(stream.text(), prompt.question(),
        tools.record().results.values().stream().map(NumberCheck::values).toList());
    return save(completion.status(), completion.notice(), numbers).eventually(this::release)
        .onSuccess(v -> events.emit(ChatEvents.chatComplete(conversationId, assistantId, tokens.input(),
            tokens.output(), completion.notice(), numbers)))
        .onFailure(this::unsaved);
  }

  /** The browser has the whole answer but storage has not: it hears so, rather than waiting on an end never sent. */
  private void unsaved(Throwable cause) {
    log.warn("Answer {} of conversation {} could not be saved: {}", assistantId, conversationId, cause.getMessage());
    events.emit(ChatEvents.chatError(conversationId, assistantId, UNSAVED, null));
  }

  private Future<Void> saveStopped() {
    LlmMetrics.turnEnded("stopped", startedNanos);
    return save(ChatMessage.CANCELLED, null, null).eventually(this::release);
  }

  private Future<Void> saveInterrupted() {
    LlmMetrics.turnEnded("interrupted", startedNanos);
    return save(ChatMessage.INTERRUPTED, RESTART_NOTICE, null).eventually(this::release)
        .onComplete(done -> events.emit(ChatEvents.chatError(conversationId, assistantId, RESTART_ERROR, null)));
  }

  private Future<Void> failed(Throwable cause) {
    String error = cause instanceof ModelException me ? me.describe()
        : cause instanceof Unusable ? cause.getMessage() : "The answer failed: " + cause.getMessage();
    String details = cause instanceof ModelException me && !me.timedOut() ? me.getMessage() : null;
    log.warn("Turn of conversation {} failed: {}", conversationId, cause.getMessage());
    LlmMetrics.turnEnded(errorKind(cause), startedNanos);
    // The reply is stored even when nothing was written, saying why, so that a reload shows the question answered
    // by its error (with Retry) rather than by nothing.
    return save(ChatMessage.ERROR, error, null).eventually(this::release)
        .onComplete(done -> events.emit(ChatEvents.chatError(conversationId, assistantId, error, details)));
  }

  /** A failure's kind, as {@code quarry_turns_total} counts it. */
  private String errorKind(Throwable cause) {
    if (cause instanceof ModelException me) {
      return me.timedOut() ? "error_timeout" : "error_" + model.provider();
    }
    if (cause instanceof Unusable) {
      return "error_unusable";
    }
    return Failure.classify(cause) == Failure.RATE_LIMITED ? "budget" : "error_internal";
  }

  private Future<Void> save(String status, String notice, JsonObject numbers) {
    return saver.finish(message(status, notice, numbers));
  }

  /** The assistant message as it stands. */
  private ChatMessage message(String status, String notice, JsonObject numbers) {
    TurnRecord record = tools.record();
    return new ChatMessage(assistantId, conversationId, ChatMessage.ASSISTANT, stream.text(), stream.saved(status),
        record.sql.copy(), record.resultIds.copy(), record.charts.copy(), tokens.input(), tokens.output(), status,
        notice, null, numbers);
  }
}
