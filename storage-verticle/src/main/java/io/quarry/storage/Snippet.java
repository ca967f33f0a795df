package io.quarry.storage;

import java.text.BreakIterator;
import java.util.Arrays;
import java.util.Locale;

/**
 * A few words of a message around where it holds a search. Folding can change a text's length ({@code ß} becomes
 * {@code ss}, an accent goes: {@link SearchText}), so the match is found in a folded copy that remembers, char by
 * char, where in the original each came from; the cut is then made in the original, on whole characters, so that
 * neither an emoji's surrogate pair nor a letter and its combining accent are split.
 */
final class Snippet {

  static final int BEFORE = 40;
  static final int AFTER = 60;

  private Snippet() {
  }

  static String around(String text, String query) {
    if (text == null) {
      return null;
    }
    String needle = SearchText.fold(query);
    StringBuilder folded = new StringBuilder(text.length());
    // Where each folded char came from; one code point folds to none, one or (a ligature) many.
    int[] origin = new int[text.length() + 1];
    for (int i = 0, next; i < text.length(); i = next) {
      int cp = text.codePointAt(i);
      next = i + Character.charCount(cp);
      String piece = SearchText.fold(cp);
      if (folded.length() + piece.length() >= origin.length) {
        origin = Arrays.copyOf(origin, Math.max(origin.length * 2, folded.length() + piece.length() + 1));
      }
      for (int k = 0; k < piece.length(); k++) {
        origin[folded.length()] = i;
        folded.append(piece.charAt(k));
      }
    }
    origin[folded.length()] = text.length();
    int found = folded.indexOf(needle);
    int at = found < 0 ? 0 : origin[found];
    int end = found < 0 ? 0 : origin[found + needle.length()];
    return cut(text, Math.max(0, at - BEFORE), Math.min(text.length(), end + AFTER));
  }

  /** {@code text} from {@code from} to {@code to}, each moved out to the nearest character boundary. */
  private static String cut(String text, int from, int to) {
    BreakIterator characters = BreakIterator.getCharacterInstance(Locale.ROOT);
    characters.setText(text);
    int start = characters.isBoundary(from) ? from : characters.preceding(from);
    int stop = characters.isBoundary(to) ? to : characters.following(to);
    return (start > 0 ? "…" : "") + text.substring(start, stop).strip().replaceAll("\\s+", " ")
        + (stop < text.length() ? "…" : "");
  }
}
