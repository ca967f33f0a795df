package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 52 item 4: after an answer with a result, two or three next questions made from its columns and the tables
 * (no model call); one click asks it; they go when another question is asked, and the last answer has them again after
 * a reload.
 */
class FollowUpsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void open() {
    openCars(page, url());
  }

  /** The page at {@code url} with the Cars sample added. */
  static void openCars(Page page, String url) {
    page.navigate(url);
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
  }

  private void ask(String question) {
    ask(page, question);
  }

  static void ask(Page page, String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }

  private Locator chips() {
    return chips(page);
  }

  /** The suggested next questions' buttons. */
  static Locator chips(Page page) {
    return page.getByRole(AriaRole.GROUP, new Page.GetByRoleOptions().setName("Suggested next questions"))
        .getByRole(AriaRole.BUTTON);
  }

  @Test
  @DisplayName("a count by a category suggests its chart and the group that leads; a click asks it, the model is"
      + " asked nothing more for the suggestions, and they go with the next question")
  void groupedResult() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query",
        "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC")).usage(100, 10);
    chat.gemini.next().answer("Most cars come from USA.").usage(100, 5);
    ask("Where do the cars come from?");

    assertThat(chips()).hasCount(3);
    assertThat(chips().nth(0)).hasText("Show this as a bar chart of cars by origin");
    assertThat(chips().nth(1)).hasText("Which origin has the highest cars?");
    assertThat(chat.gemini.requests()).as("the model's requests: the question's two, none for suggestions").hasSize(2);

    chat.gemini.next().answer("USA leads.").usage(100, 5);
    chips().nth(1).click();
    assertThat(page.locator(".message.user").nth(1)).hasText("Which origin has the highest cars?");
    assertThat(page.locator(".message.assistant .content").nth(1)).hasText("USA leads.");
    assertThat(chat.gemini.requests().get(2).userTexts()).last().isEqualTo("Which origin has the highest cars?");
    // No result in the last answer: no suggestions.
    assertThat(page.locator(".follow-ups")).hasCount(0);
  }

  @Test
  @DisplayName("a single figure suggests breaking it down by a category of the table it read; the last answer has its"
      + " suggestions again after a reload, questions already asked left out")
  void singleFigureAndReload() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", "SELECT count(*) AS n FROM table1"))
        .usage(100, 10);
    chat.gemini.next().answer("406 cars.").usage(100, 5);
    ask("How many rows does table1 have?");

    assertThat(chips().first()).hasText("Break this down by origin");
    List<String> offered = chips().allTextContents();
    assertThat(offered).doesNotContain("How many rows does table1 have?").hasSizeLessThanOrEqualTo(3);

    page.reload();
    assertThat(page.locator(".message.assistant .content")).hasText("406 cars.");
    assertThat(chips()).hasCount(offered.size());
    assertThat(chips().allTextContents()).isEqualTo(offered);
  }

  @Test
  @DisplayName("with chat.followUps=schema (the default) the page is told so, and the model's route refuses with why")
  void modelRouteRefused() {
    chat.gemini.next().answer("Hello.").usage(100, 5);
    ask("Hi");
    assertThat(page.locator(".message.assistant .content")).hasText("Hello.");
    APIResponse me = page.request().get(url() + "api/me");
    assertThat(new JsonObject(me.text()).getString("follow_ups")).isEqualTo("schema");
    JsonObject conversation = new JsonObject(page.request().get(url() + "api/conversations").text())
        .getJsonArray("conversations").getJsonObject(0);
    JsonObject answer = new JsonObject(page.request().get(url() + "api/conversations/" + conversation.getString("id"))
        .text()).getJsonArray("messages").getJsonObject(1);
    APIResponse refused = page.request().post(url() + "api/conversations/" + conversation.getString("id")
        + "/messages/" + answer.getString("id") + "/follow-ups",
        RequestOptions.create().setHeader("Origin", url().substring(0, url().length() - 1)));
    assertThat(refused.status()).isEqualTo(409);
    assertThat(new JsonObject(refused.text()).getString("error"))
        .isEqualTo("This server suggests next questions without the model (chat.followUps=schema)");
    assertThat(chat.gemini.requests()).hasSize(1);
  }
}
