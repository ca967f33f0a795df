package io.quarry.testing;

import static io.quarry.bus.StorageOps.*;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Conversation;
import io.quarry.bus.Dataset;
import io.quarry.bus.QuarryException;
import io.quarry.bus.QueryResult;
import io.quarry.bus.Scopes.ConversationRef;
import io.quarry.bus.Timestamps;
import io.quarry.bus.TokenUsage;
import io.quarry.bus.UsageWindow;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The storage verticle in memory, for testing the verticles that call it (llm, dataset) alone: it answers the
 * conversation, message, dataset, result and usage addresses with the replies and failures of storage-verticle,
 * without its quotas. Tests seed it, read back what was stored, and count, fail or hold requests (see
 * {@link BusFake}).
 */
public final class FakeStorage extends BusFake {

  /** storage-verticle's texts; the contract has no constants for them. */
  static final String CONVERSATION_NOT_FOUND = "Conversation not found";
  private static final String RESULT_NOT_FOUND = "Result not found";
  private static final Set<String> ROLES = Set.of(ChatMessage.USER, ChatMessage.ASSISTANT, ChatMessage.TOOL);

  private final Map<String, Conversation> conversations = new HashMap<>();
  private final StoredMessages messages = new StoredMessages();
  private final StoredDatasets datasets = new StoredDatasets(this::owns);
  private final Map<String, QueryResult> results = new LinkedHashMap<>();
  private final List<TokenUsage> usage = new ArrayList<>();

  private FakeStorage() {
  }

  /** Deployed, its addresses bound. */
  public static Future<FakeStorage> start(Vertx vertx) {
    return deploy(vertx, new FakeStorage());
  }

  @Override
  protected List<Handler<?, ?>> handlers() {
    return List.of(
        handle(CONVERSATION_GET, this::owned),
        handle(CONVERSATION_RENAME, this::renameConversation),
        handle(MESSAGE_APPEND, this::appendMessage),
        handle(MESSAGE_LIST, ref -> messages.of(owned(ref).id())),
        handle(MESSAGE_INTERRUPT, this::interruptMessage),
        handle(MESSAGE_REOPEN, this::reopenMessage),
        handle(DATASET_CLAIM, datasets::claim),
        handle(DATASET_LIST, datasets::list),
        handle(DATASET_GET, datasets::get),
        handle(DATASET_UPDATE, datasets::update),
        handle(DATASET_RENAME, datasets::rename),
        handle(DATASET_DELETE, datasets::delete),
        handle(RESULT_SAVE, this::saveResult),
        handle(RESULT_GET, this::result),
        handle(USAGE_RECORD, this::recordUsage),
        handle(USAGE_WINDOW, this::usageWindow));
  }

  // What a test arranges

  public Future<Conversation> seedConversation(String userId, String title) {
    String now = Timestamps.now();
    Conversation created = new Conversation(UUID.randomUUID().toString(), userId, title, now, now);
    return onLoop(() -> store(created));
  }

  /** A ready dataset of the conversation, as a finished load leaves it. */
  public Future<Dataset> seedDataset(String conversationId, String name, String url, long rowCount, JsonArray schema) {
    return onLoop(() -> datasets.add(StoredDatasets.ready(conversationId, url, name, rowCount, schema)));
  }

  /** Each given an id and a time when it has none, and kept in its conversation in this order. */
  public Future<List<ChatMessage>> seedMessages(ChatMessage... seeded) {
    return onLoop(() -> Arrays.stream(seeded).map(messages::seed).toList());
  }

  /** A stored result (with an id of its own if it has none), e.g. the one a faked query answered with. */
  public Future<QueryResult> seedResult(QueryResult result) {
    return onLoop(() -> keep(result.id() == null ? result.stored(UUID.randomUUID().toString(), Timestamps.now())
        : result));
  }

  // What a test reads back

  /** The conversation as stored now, or null. */
  public Future<Conversation> conversation(String conversationId) {
    return onLoop(() -> conversations.get(conversationId));
  }

  /** Oldest first. */
  public Future<List<ChatMessage>> messages(String conversationId) {
    return onLoop(() -> messages.of(conversationId));
  }

  /** In the order they were added. */
  public Future<List<Dataset>> datasets(String conversationId) {
    return onLoop(() -> datasets.of(conversationId));
  }

  /** Every result stored, in the order it was saved. */
  public Future<List<QueryResult>> results() {
    return onLoop(() -> List.copyOf(results.values()));
  }

  /** Every usage recorded, in the order it was. */
  public Future<List<TokenUsage>> usage() {
    return onLoop(() -> List.copyOf(usage));
  }

  // The handlers: storage-verticle's answers

  private Conversation renameConversation(RenameConversation rename) {
    Conversation c = owned(rename.userId(), rename.conversationId());
    return store(new Conversation(c.id(), c.userId(), rename.title(), c.createdAt(), Timestamps.now()));
  }

  /** A message that comes again with its id (a streamed answer as it grows) replaces itself. */
  private ChatMessage appendMessage(AppendMessage append) {
    String userId = append.userId();
    ChatMessage m = append.message();
    if (m.conversationId() == null || !ROLES.contains(m.role())) {
      throw QuarryException.badRequest("Field 'message' needs a conversation_id and a role of user, assistant or tool");
    }
    Conversation c = owned(userId, m.conversationId());
    ChatMessage stored = messages.append(m);
    store(new Conversation(c.id(), c.userId(), c.title(), c.createdAt(), stored.createdAt()));
    return stored;
  }

  private ChatMessage interruptMessage(InterruptMessage interrupt) {
    Conversation c = owned(interrupt.userId(), interrupt.conversationId());
    ChatMessage m = messages.interrupt(c.id(), interrupt.messageId(), interrupt.notice());
    if (m == null) {
      throw QuarryException.notFound("Message not found");
    }
    return m;
  }

  private ChatMessage reopenMessage(ReopenMessage reopen) {
    Conversation c = owned(reopen.userId(), reopen.conversationId());
    ChatMessage m = messages.reopen(c.id(), reopen.messageId(), reopen.notice());
    if (m == null) {
      throw QuarryException.notFound("Message not found");
    }
    if (!ChatMessage.STREAMING.equals(m.status())) {
      throw QuarryException.conflict(NOT_CUT_OFF);
    }
    return m;
  }

  private Saved saveResult(SaveResult save) {
    String userId = save.userId();
    QueryResult given = save.result().capped();
    QueryResult stored = given.id() == null ? given.stored(UUID.randomUUID().toString(), Timestamps.now()) : given;
    owned(userId, stored.conversationId());
    keep(stored);
    return new Saved(stored.id(), stored.createdAt());
  }

  private QueryResult result(ResultRef ref) {
    QueryResult r = results.get(ref.resultId());
    if (r == null || !owns(ref.userId(), r.conversationId())) {
      throw QuarryException.notFound(RESULT_NOT_FOUND);
    }
    return r;
  }

  private Void recordUsage(RecordUsage record) {
    TokenUsage u = record.usage();
    usage.add(new TokenUsage(u.userId(), u.conversationId(), u.modelName() == null ? "unknown" : u.modelName(),
        u.inputTokens(), u.outputTokens(), u.createdAt() == null ? Timestamps.now() : u.createdAt(), u.estimated()));
    return null;
  }

  private UsageWindow usageWindow(UsageSince window) {
    String userId = window.userId();
    String since = window.since();
    List<TokenUsage> inside = usage.stream()
        .filter(u -> u.userId().equals(userId) && u.createdAt().compareTo(since) >= 0)
        .sorted(Comparator.comparing(TokenUsage::createdAt))
        .toList();
    long input = inside.stream().mapToLong(TokenUsage::inputTokens).sum();
    long output = inside.stream().mapToLong(TokenUsage::outputTokens).sum();
    // Listed only from the total asked, as storage lists them.
    List<UsageWindow.Entry> entries = input + output < window.listFrom() ? List.of() : inside.stream()
        .map(u -> new UsageWindow.Entry(u.createdAt(), u.inputTokens() + u.outputTokens())).toList();
    return new UsageWindow(input, output, inside.isEmpty() ? null : inside.get(0).createdAt(), entries,
        inside.stream().anyMatch(TokenUsage::estimated));
  }

  // The tables

  private boolean owns(String userId, String conversationId) {
    Conversation c = conversations.get(conversationId);
    return c != null && c.userId().equals(userId);
  }

  /** Another user's conversation is simply not found. */
  private Conversation owned(String userId, String conversationId) {
    if (!owns(userId, conversationId)) {
      throw QuarryException.notFound(CONVERSATION_NOT_FOUND);
    }
    return conversations.get(conversationId);
  }

  private Conversation owned(ConversationRef ref) {
    return owned(ref.userId(), ref.conversationId());
  }

  private Conversation store(Conversation c) {
    conversations.put(c.id(), c);
    return c;
  }

  private QueryResult keep(QueryResult r) {
    results.put(r.id(), r);
    return r;
  }
}
