package io.quarry.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A conversation's title is a short one made from its first question, without asking the model. */
class TitleTest {

  @Test
  @DisplayName("a short question is its own title, a final full stop dropped")
  void shortQuestion() {
    assertThat(Titles.of("Which cities have more than a million people?"))
        .isEqualTo("Which cities have more than a million people?");
    assertThat(Titles.of("  Count the cars.  ")).isEqualTo("Count the cars");
  }

  @Test
  @DisplayName("only the first sentence of the first line counts; a decimal point or a URL does not end a sentence")
  void firstSentence() {
    assertThat(Titles.of("How many cars are there? Then chart them by origin and year, please."))
        .isEqualTo("How many cars are there?");
    assertThat(Titles.of("Rows with score above 2.5\nand more lines")).isEqualTo("Rows with score above 2.5");
    assertThat(Titles.of("Load https://example.com/a.parquet now")).isEqualTo("Load https://example.com/a.parquet now");
  }

  @Test
  @DisplayName("a long sentence is cut to eight words and ends in '…', not in the comma it was cut after")
  void longSentence() {
    assertThat(Titles.of("What is the average horsepower of cars by origin, and which origin has the most"
        + " cylinders on average over the years"))
        .isEqualTo("What is the average horsepower of cars by…");
    assertThat(Titles.of("Compare sales, returns, margins and stock by region, store and month"))
        .isEqualTo("Compare sales, returns, margins and stock by region…");
    assertThat(Titles.of("Compare transactions, reimbursements, cancellations, subscriptions and renewals by"
        + " region")).isEqualTo("Compare transactions, reimbursements, cancellations…");
  }

  @Test
  @DisplayName("eight long words are cut at a word's end within 60 characters; one very long word at 60")
  void longWord() {
    String title = Titles.of("x".repeat(500));
    assertThat(title).hasSize(Titles.MAX_CHARS).endsWith("…");
  }
}
