package io.quarry.testing;

import io.quarry.bus.ChatMessage;
import io.quarry.bus.Timestamps;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** {@link FakeStorage}'s messages, kept as storage-verticle's {@code MessageStore} keeps them. */
final class StoredMessages {

  /** Of every conversation, in the order they were first stored. */
  private final List<ChatMessage> messages = new ArrayList<>();

  /** Oldest first, as storage lists them. */
  List<ChatMessage> of(String conversationId) {
    return messages.stream().filter(m -> m.conversationId().equals(conversationId))
        .sorted(Comparator.comparing(ChatMessage::createdAt)).toList();
  }

  /** A caller may name a message beforehand (a streamed answer's id is known before it is stored). */
  ChatMessage append(ChatMessage m) {
    String id = m.id() != null && m.id().matches("[0-9a-fA-F-]{36}") ? m.id() : UUID.randomUUID().toString();
    return keep(withIdAndTime(m, id, Timestamps.now()));
  }

  /** Kept with its id and time, or new ones when it has none. */
  ChatMessage seed(ChatMessage m) {
    return keep(withIdAndTime(m, m.id() == null ? UUID.randomUUID().toString() : m.id(),
        m.createdAt() == null ? Timestamps.now() : m.createdAt()));
  }

  /**
   * As storage's upsert: a known id has its content and outcome replaced, keeping its time, if it is of the
   * same conversation and role; otherwise nothing changes.
   */
  private ChatMessage keep(ChatMessage m) {
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage old = messages.get(i);
      if (old.id().equals(m.id())) {
        if (old.conversationId().equals(m.conversationId()) && old.role().equals(m.role())) {
          messages.set(i, withIdAndTime(m, old.id(), old.createdAt()));
        }
        return m;
      }
    }
    messages.add(m);
    return m;
  }

  /**
   * As storage's interrupt: a streaming answer is marked interrupted with its text; one never saved is kept empty;
   * an ended one stays. The answer as it stands, or null when the id is another conversation's.
   */
  ChatMessage interrupt(String conversationId, String id, String notice) {
    ChatMessage old = messages.stream().filter(m -> m.id().equals(id)).findFirst().orElse(null);
    if (old == null) {
      return keep(new ChatMessage(id, conversationId, ChatMessage.ASSISTANT, "", null, null, null, null, 0, 0,
          ChatMessage.INTERRUPTED, notice, Timestamps.now()));
    }
    if (!old.conversationId().equals(conversationId) || !old.role().equals(ChatMessage.ASSISTANT)) {
      return null;
    }
    return !ChatMessage.STREAMING.equals(old.status()) ? old : keep(new ChatMessage(id, conversationId, old.role(),
        old.content(), old.toolRounds(), old.sql(), old.resultIds(), old.charts(), old.inputTokens(),
        old.outputTokens(), ChatMessage.INTERRUPTED, notice, old.createdAt()));
  }

  /**
   * As storage's reopen: an answer that ended complete with {@code notice} streams again. The answer as it stands, or
   * null when it is no answer of the conversation.
   */
  ChatMessage reopen(String conversationId, String id, String notice) {
    ChatMessage old = messages.stream().filter(m -> m.id().equals(id)).findFirst().orElse(null);
    if (old == null || !old.conversationId().equals(conversationId) || !old.role().equals(ChatMessage.ASSISTANT)) {
      return null;
    }
    return !ChatMessage.COMPLETE.equals(old.status()) || !notice.equals(old.notice()) ? old
        : keep(new ChatMessage(id, conversationId, old.role(), old.content(), old.toolRounds(), old.sql(),
            old.resultIds(), old.charts(), old.inputTokens(), old.outputTokens(), ChatMessage.STREAMING, old.notice(),
            old.createdAt(), old.numbers()));
  }

  private static ChatMessage withIdAndTime(ChatMessage m, String id, String createdAt) {
    return new ChatMessage(id, m.conversationId(), m.role(), m.content(), m.toolRounds(), m.sql(), m.resultIds(),
        m.charts(), m.inputTokens(), m.outputTokens(), m.status(), m.notice(), createdAt, m.numbers());
  }
}
