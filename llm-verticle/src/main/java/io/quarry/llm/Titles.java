package io.quarry.llm;

import io.quarry.bus.ChatEvents;
import io.quarry.bus.Conversation;
import io.quarry.bus.StorageClient;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A conversation's title: a short one made from its first question, without asking the model. */
final class Titles {

  static final String DEFAULT = "New conversation";
  static final int MAX_CHARS = 60;
  static final int MAX_WORDS = 8;
  private static final Pattern SENTENCE_END = Pattern.compile("[.?!](?=\\s)");
  private static final Pattern TRAILING_PUNCTUATION = Pattern.compile("[\\s.,;:!\\-–—]+$");

  private final StorageClient storage;

  Titles(StorageClient storage) {
    this.storage = storage;
  }

  /** A conversation still called "New conversation" takes its name from its first question. */
  void nameAfterFirstQuestion(Conversation conversation, String question, Events events) {
    if (!DEFAULT.equals(conversation.title())) {
      return;
    }
    String title = of(question);
    if (title.isEmpty()) {
      return;
    }
    storage.renameConversation(conversation.userId(), conversation.id(), title)
        .onSuccess(renamed -> events.emit(ChatEvents.conversationUpdated(conversation.id(), title)));
  }

  /**
   * A short title from a question: its first sentence of its first line, at most {@value #MAX_WORDS} words and
   * {@value #MAX_CHARS} characters, with "…" where it was cut. A sentence ends at '.', '?' or '!' before a space, so a
   * decimal point or a URL's dots do not end it; a title drops a final '.'.
   */
  static String of(String question) {
    String firstLine = question.strip().lines().findFirst().orElse("").strip();
    Matcher end = SENTENCE_END.matcher(firstLine);
    String sentence = end.find() ? firstLine.substring(0, end.start() + 1) : firstLine;
    String[] words = sentence.split("\\s+");
    String title = String.join(" ", Arrays.copyOf(words, Math.min(words.length, MAX_WORDS)));
    boolean cut = words.length > MAX_WORDS;
    if (title.length() > MAX_CHARS) {
      // At a word's end when there is one; "…" takes the last character.
      int space = title.lastIndexOf(' ', MAX_CHARS - 1);
      title = title.substring(0, space > 0 ? space : MAX_CHARS - 1);
      cut = true;
    }
    // A cut title ends in "…", not in the comma it was cut after; a whole sentence keeps its '?' or '!'.
    return cut ? TRAILING_PUNCTUATION.matcher(title).replaceAll("") + "…"
        : title.endsWith(".") ? title.substring(0, title.length() - 1) : title;
  }
}
