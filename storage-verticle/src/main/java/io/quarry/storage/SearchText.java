package io.quarry.storage;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * How search compares text: without regard to case or to accents, the same in Java for the query and for the stored
 * text, whichever database holds it. SQLite's {@code lower()} and {@code LIKE} fold ASCII only, and PostgreSQL's
 * {@code lower()} folds as its database's locale does (ASCII only under {@code C}); so each title and message keeps a
 * folded copy ({@code title_folded}, {@code content_folded}), written with it, and search matches the folded query
 * against that, still one {@code LIKE} per row as before.
 *
 * <p>Each code point folds on its own, so that a text's folded copy is its code points' folds one after another (a
 * match found in it maps back to the original, see {@link Snippet}): compatibility decomposition (NFKD: {@code ﬁ} is
 * {@code fi}, a full-width {@code Ａ} is {@code A}), Latin, Greek and Cyrillic accents dropped (the combining marks of
 * the Combining Diacritical Marks blocks; the vowel signs of other scripts stay), then full case folding, lower of
 * upper of lower. So {@code İstanbul}, {@code ISTANBUL} and {@code istanbul} are one word, {@code ÉCOLE},
 * {@code École}, {@code ecole} another, {@code STRASSE}, {@code Straße}, {@code strasse} a third (Unicode's case
 * folding of {@code ß} is {@code ss}), and {@code ς} and {@code σ} one letter.
 */
final class SearchText {

  /** How many rows the migration folds at a time. */
  private static final int BATCH = 500;
  /**
   * The folds of the Basic Multilingual Plane, each worked out once: uncached, a 10,000-char Cyrillic or Chinese
   * message took 10-12 ms to fold (normalising each code point), on the event loop at every save of a streamed answer.
   */
  private static final AtomicReferenceArray<String> BMP = new AtomicReferenceArray<>(0x10000);

  private SearchText() {
  }

  /** Null stays null. */
  static String fold(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints().forEach(cp -> out.append(fold(cp)));
    return out.toString();
  }

  /** One code point's fold: none, one or several chars. */
  static String fold(int cp) {
    if (cp > 0xFFFF) {
      return foldOnce(cp);
    }
    String folded = BMP.get(cp);
    if (folded == null) {
      folded = foldOnce(cp);
      BMP.set(cp, folded);
    }
    return folded;
  }

  private static String foldOnce(int cp) {
    if (cp < 0x80) {
      return String.valueOf((char) (cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp));
    }
    String decomposed = Normalizer.normalize(Character.toString(cp), Normalizer.Form.NFKD);
    String cased = withoutAccents(decomposed).toLowerCase(Locale.ROOT).toUpperCase(Locale.ROOT)
        .toLowerCase(Locale.ROOT);
    // Composed again, so that a Hangul syllable is one char as typed, not its jamo; case mapping can add a mark.
    return Normalizer.normalize(withoutAccents(cased), Normalizer.Form.NFC);
  }

  private static String withoutAccents(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints().filter(c -> !accent(c)).forEach(out::appendCodePoint);
    return out.toString();
  }

  /** The combining marks that Latin, Greek and Cyrillic letters decompose to (and their rarer extensions). */
  private static boolean accent(int cp) {
    return cp >= 0x0300 && cp <= 0x036F || cp >= 0x1AB0 && cp <= 0x1AFF || cp >= 0x1DC0 && cp <= 0x1DFF
        || cp >= 0x20D0 && cp <= 0x20FF || cp >= 0xFE20 && cp <= 0xFE2F;
  }

  /** The migration that added the folded copies: the titles and messages already stored get theirs. */
  static Future<Void> foldStored(SqlConnection conn, Dialect dialect) {
    return foldColumn(conn, dialect, "conversations", "title")
        .compose(v -> foldColumn(conn, dialect, "messages", "content"));
  }

  /** In batches, so that a large database's messages need not be in memory at once. */
  private static Future<Void> foldColumn(SqlConnection conn, Dialect dialect, String table, String column) {
    return conn.query("SELECT id, " + column + " FROM " + table + " WHERE " + column + "_folded IS NULL LIMIT " + BATCH)
        .execute()
        .compose(rows -> {
          if (rows.size() == 0) {
            return Future.succeededFuture();
          }
          List<Tuple> folded = new ArrayList<>(rows.size());
          for (Row row : rows) {
            folded.add(Tuple.of(fold(row.getString(1)), row.getString(0)));
          }
          return conn.preparedQuery(dialect.sql("UPDATE " + table + " SET " + column + "_folded = ? WHERE id = ?"))
              .executeBatch(folded)
              .compose(done -> foldColumn(conn, dialect, table, column));
        });
  }
}
