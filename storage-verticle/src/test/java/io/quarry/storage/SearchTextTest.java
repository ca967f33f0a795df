package io.quarry.storage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What search takes as the same text (review 48, item 10), decided once for both databases. */
class SearchTextTest {

  @Test
  @DisplayName("case and Latin, Greek and Cyrillic accents fold away, past ASCII: İ, É and a decomposed É, ß and ẞ as"
      + " ss, dotless ı, final ς, ligatures and full-width letters")
  void folds() {
    String[][] same = {
        {"İstanbul", "ISTANBUL", "istanbul", "ıstanbul"},
        {"ÉCOLE", "École", "école", "ecole", "E\u0301COLE"},
        {"Straße", "STRASSE", "strasse", "STRAẞE"},
        {"ΟΔΟΣ", "οδος", "οδοσ", "ὁδός"},
        {"ﬁle", "FILE", "ｆｉｌｅ"},
        {"Ёлка", "ЁЛКА", "елка"}};
    for (String[] words : same) {
      for (String word : words) {
        assertThat(SearchText.fold(word)).as(word).isEqualTo(SearchText.fold(words[0]));
      }
    }
  }

  @Test
  @DisplayName("what is not case or such an accent stays: Hangul syllables whole, Devanagari vowel signs, emoji, digits")
  void keeps() {
    assertThat(SearchText.fold("한국어")).isEqualTo("한국어");
    assertThat(SearchText.fold("किताब")).isEqualTo("किताब").isNotEqualTo(SearchText.fold("कताब"));
    assertThat(SearchText.fold("Sales 📈 2023")).isEqualTo("sales 📈 2023");
    assertThat(SearchText.fold("a_b%!")).isEqualTo("a_b%!");
    assertThat(SearchText.fold((String) null)).isNull();
  }
}
