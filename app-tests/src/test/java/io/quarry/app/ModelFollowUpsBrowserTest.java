package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 52 item 4 with {@code chat.followUps=model}: the model writes the next questions (one request, once an answer,
 * not again on a reload of the page); when it cannot, the page offers its own.
 */
class ModelFollowUpsBrowserTest extends BrowserTestBase {

  private static final String COUNT_BY_ORIGIN =
      "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC";

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_CHAT_FOLLOW_UPS", "model");
  }

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void open() {
    FollowUpsBrowserTest.openCars(page, url());
  }

  private void ask(String question) {
    FollowUpsBrowserTest.ask(page, question);
  }

  private Locator chips() {
    return FollowUpsBrowserTest.chips(page);
  }

  private void answerByOrigin() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", COUNT_BY_ORIGIN)).usage(100, 10);
    chat.gemini.next().answer("Most cars come from USA.").usage(100, 5);
  }

  @Test
  @DisplayName("the model's questions are the chips, asked for once: a reload shows them without another request;"
      + " a click asks one")
  void modelWritesThem() {
    answerByOrigin();
    chat.gemini.next().text("1. Which origin has the heaviest cars?\n2. How many cars per model year?").usage(300, 20);
    ask("Where do the cars come from?");

    assertThat(chips()).hasText(new String[] {"Which origin has the heaviest cars?", "How many cars per model year?"});
    assertThat(chat.gemini.requests()).as("the question's two requests and the follow-ups' one").hasSize(3);
    assertThat(chat.gemini.requests().get(2).userTexts()).last().asString()
        .contains("Where do the cars come from?").contains("Most cars come from USA.");

    page.reload();
    assertThat(page.locator(".message.assistant .content")).hasText("Most cars come from USA.");
    assertThat(chips()).hasText(new String[] {"Which origin has the heaviest cars?", "How many cars per model year?"});

    chat.gemini.next().answer("Europe's.").usage(100, 5);
    chips().first().click();
    assertThat(page.locator(".message.user").nth(1)).hasText("Which origin has the heaviest cars?");
    assertThat(page.locator(".message.assistant .content").nth(1)).hasText("Europe's.");
    assertThat(chat.gemini.requests()).as("no follow-ups asked again on the reload; the click's question").hasSize(4);
  }

  @Test
  @DisplayName("when the model cannot write them, the page's own are offered")
  void pageOffersItsOwn() {
    answerByOrigin();
    chat.gemini.next().httpError(400, "Request contains an invalid argument.");
    ask("Where do the cars come from?");

    assertThat(chips().first()).hasText("Show this as a bar chart of cars by origin");
  }
}
