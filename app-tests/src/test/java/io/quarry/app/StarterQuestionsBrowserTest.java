package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.FakeGemini;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, part 4: an empty conversation with a ready table offers starter questions built from its columns and
 * their friendly types (no model call); a click asks one.
 */
class StarterQuestionsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  private Locator starters() {
    return page.locator("#starter-list button");
  }

  @Test
  @DisplayName("STARTER-1: the cars sample (text origin, decimal miles_per_gallon, a date) gets four questions from "
      + "its columns without asking the model; a click sends that question, which the model receives as typed, and "
      + "its answer shows")
  void carsStarters() {
    assertThat(page.locator("#starters")).isHidden();
    ui.addCars();
    assertThat(starters()).hasText(new String[] {
        "How many rows does table1 have?",
        "What is the average miles_per_gallon by origin?",
        "How did miles_per_gallon change over time by month?",
        "What are the most common values of origin?",
    });
    assertThat(chat.gemini.requests()).as("no model call for the starters").isEmpty();

    chat.gemini.next().call("execute_sql", new JsonObject().put("query",
        "SELECT origin, avg(miles_per_gallon) AS mpg FROM table1 GROUP BY origin ORDER BY mpg DESC")).usage(100, 10);
    chat.gemini.next().answer("Cars from Japan go furthest on a gallon.");
    starters().nth(1).click();
    assertThat(page.locator(".message.user")).hasText("What is the average miles_per_gallon by origin?");
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);
    assertThat(page.locator(".message.assistant .content")).hasText("Cars from Japan go furthest on a gallon.");
    ui.answered();
    assertThat(page.locator("#starters")).isHidden();
    assertThat(page.locator("#onboarding")).isHidden();

    List<FakeGemini.Request> requests = chat.gemini.requests();
    JsonArray contents = requests.get(0).contents();
    JsonObject question = contents.getJsonObject(contents.size() - 1);
    assertThat(question.getString("role")).isEqualTo("user");
    assertThat(question.getJsonArray("parts").getJsonObject(0).getString("text"))
        .isEqualTo("What is the average miles_per_gallon by origin?");
  }

  @Test
  @DisplayName("STARTER-2: a table of people (id, name, age, score, joined date, active flag) gets other questions: "
      + "no average of an id or by a name, a trend by its date, the share of its flag")
  void peopleStarters() {
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    assertThat(starters()).hasText(new String[] {
        "How many rows does table1 have?",
        "How did age change over time by month?",
        "What share of table1 has active true?",
        "What are the smallest, average and largest age?",
    });
    assertThat(page.locator("#starters")).hasAttribute("role", "group");
    assertThat(page.locator("#starters")).hasAccessibleName("Try asking");
  }

  @Test
  @DisplayName("STARTER-3: a conversation with no table offers no starter question, only the samples")
  void noTableNoStarters() {
    assertThat(page.locator(".sample").first()).isVisible();
    assertThat(page.locator("#starters")).isHidden();
    assertThat(starters()).hasCount(0);
  }
}
