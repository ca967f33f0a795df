package io.quarry.storage;

import java.text.BreakIterator;
import java.util.Locale;

/**
 * A few words of a message around where it holds a search. Lower-casing can change a text's length ({@code İ}
 * becomes {@code i̇}, two chars), so the match is found in a lower-cased copy that remembers, char by char, where
 * in the original each came from; the cut is then made in the original, on whole characters, so that neither an
 * emoji's surrogate pair nor a letter and its combining accent are split.
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
    String needle = lower(query);
    StringBuilder folded = new StringBuilder(text.length());
    // Where each folded char came from; one code point folds to at most 3 chars.
    int[] origin = new int[text.length() * 3 + 1];
    for (int i = 0, next; i < text.length(); i = next) {
      next = i + Character.charCount(text.codePointAt(i));
      for (char c : lower(text.substring(i, next)).toCharArray()) {
        origin[folded.length()] = i;
        folded.append(c);
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

  /** Per code point, as the text is folded, so that the query folds the same way. */
  private static String lower(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints().forEach(cp -> out.append(new String(Character.toChars(cp)).toLowerCase(Locale.ROOT)));
    return out.toString();
  }
}
