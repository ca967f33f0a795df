package io.quarry.llm;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Column;
import io.quarry.bus.Dataset;
import io.quarry.bus.Failure;
import io.quarry.bus.LlmOps;
import io.quarry.bus.LlmOps.AnswerRef;
import io.quarry.bus.LlmOps.FollowUps;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.StorageClient;
import io.quarry.bus.TokenUsage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Next questions for an answer, written by the model ({@code chat.followUps=model}): one request without tools, from
 * the tables, the question, the answer and its last result's columns, held and counted in the user's budget as a turn.
 */
final class FollowUpWriter {

  private static final Logger log = LoggerFactory.getLogger(FollowUpWriter.class);

  static final String INSTRUCTION = "Suggest up to three short questions I could ask next about these tables,"
      + " following on from your last answer: each one a question SQL over the tables above can answer, and not one"
      + " already asked. Write one question per line and nothing else.";
  /** What the model is shown of an answer: its start, which says what it found. */
  static final int ANSWER_CHARS = 4_000;
  /** A line longer than this is no short question. */
  static final int MAX_CHARS = 200;
  static final String NOT_CONFIGURED = "Chat is not configured on this server";
  static final String FAILED = "The model could not suggest next questions now";
  private static final Pattern LIST_MARK = Pattern.compile("^\\s*(?:[-*•]|\\d+[.)])\\s*");

  private final TurnContext context;
  private final TokenBudget budget;

  FollowUpWriter(TurnContext context, TokenBudget budget) {
    this.context = context;
    this.budget = budget;
  }

  Future<FollowUps> write(AnswerRef ref) {
    if (context.model() == null) {
      return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, NOT_CONFIGURED));
    }
    StorageClient storage = context.storage();
    Future<List<ChatMessage>> messages = storage.messages(ref.userId(), ref.conversationId());
    Future<List<Dataset>> datasets = storage.datasets(ref.userId(), ref.conversationId());
    return Future.all(messages, datasets).compose(read -> {
      List<ChatMessage> history = messages.result();
      int at = answerAt(history, ref.messageId());
      return lastResult(ref.userId(), history.get(at))
          .compose(result -> ask(ref, new ModelRequest(SystemPrompt.build(datasets.result()),
              contents(history, at, result), true)));
    });
  }

  /** Where the answer is in its conversation: NOT_FOUND unless it is a complete answer of it. */
  private static int answerAt(List<ChatMessage> history, String messageId) {
    for (int i = 0; i < history.size(); i++) {
      ChatMessage m = history.get(i);
      if (m.id().equals(messageId) && ChatMessage.ASSISTANT.equals(m.role())
          && ChatMessage.COMPLETE.equals(m.status())) {
        return i;
      }
    }
    throw QuarryException.notFound("No complete answer " + messageId + " in this conversation");
  }

  /** The columns of the answer's last result, when it has one the user can still read. */
  private Future<QueryResult> lastResult(String userId, ChatMessage answer) {
    JsonArray ids = answer.resultIds();
    if (ids == null || ids.isEmpty()) {
      return Future.succeededFuture();
    }
    return context.storage().result(userId, ids.getString(ids.size() - 1)).otherwiseEmpty();
  }

  /** The questions asked so far, the answer (its start) and its result's columns, then the instruction. */
  static JsonArray contents(List<ChatMessage> history, int at, QueryResult result) {
    StringBuilder asked = new StringBuilder("Questions asked so far:\n");
    history.subList(0, at).stream().filter(m -> ChatMessage.USER.equals(m.role()))
        .forEach(m -> asked.append("- ").append(m.content().strip().replace('\n', ' ')).append('\n'));
    String answer = history.get(at).content();
    StringBuilder last = new StringBuilder("Your last answer:\n")
        .append(answer.length() > ANSWER_CHARS ? answer.substring(0, ANSWER_CHARS) + "…" : answer);
    if (result != null) {
      last.append("\n\nIts result has ").append(result.totalRows()).append(" rows with columns: ")
          .append(String.join(", ", Column.of(result.columns()).stream().map(c -> c.name() + " (" + c.type() + ")")
              .toList()));
    }
    return new JsonArray().add(user(asked + "\n" + last + "\n\n" + INSTRUCTION));
  }

  private static JsonObject user(String text) {
    return new JsonObject().put("role", "user")
        .put("parts", new JsonArray().add(new JsonObject().put("text", text)));
  }

  private Future<FollowUps> ask(AnswerRef ref, ModelRequest request) {
    return budget.hold(ref.userId()).compose(hold -> {
      StringBuilder text = new StringBuilder();
      ModelResponse response = new ModelResponse(text::append);
      Model model = context.model();
      return model.stream(request, response).done()
          .transform(outcome -> record(ref, model, response).transform(counted -> {
            hold.release();
            if (outcome.failed()) {
              log.warn("Follow-ups for answer {} failed: {}", ref.messageId(), outcome.cause().getMessage());
              return Future.failedFuture(new QuarryException(Failure.UNAVAILABLE, FAILED));
            }
            return Future.succeededFuture(new FollowUps(questions(text.toString())));
          }));
    });
  }

  private Future<Void> record(AnswerRef ref, Model model, ModelResponse response) {
    LlmMetrics.tokens(response.inputTokens(), response.outputTokens() - response.thinkingTokens(),
        response.thinkingTokens());
    return context.storage().recordUsage(new TokenUsage(ref.userId(), ref.conversationId(), model.id(),
            response.inputTokens(), response.outputTokens(), null, response.estimated()))
        .onFailure(e -> log.warn("Token usage of follow-ups in {} not recorded: {}", ref.conversationId(),
            e.getMessage()))
        .otherwiseEmpty();
  }

  /** The model's lines as questions: list marks and quotes dropped, blank and overlong lines skipped, no repeats. */
  static List<String> questions(String text) {
    Set<String> questions = new LinkedHashSet<>();
    for (String line : text.split("\\R")) {
      String q = LIST_MARK.matcher(line).replaceFirst("").strip().replaceAll("^[\"“*]+|[\"”*]+$", "").strip();
      if (!q.isEmpty() && q.length() <= MAX_CHARS && questions.size() < LlmOps.MAX_FOLLOW_UPS) {
        questions.add(q);
      }
    }
    return List.copyOf(questions);
  }
}
