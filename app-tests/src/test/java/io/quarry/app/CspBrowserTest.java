package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Response;
import com.microsoft.playwright.options.AriaRole;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Every page of the UI works under Quarry's Content-Security-Policy, and the browser reports no violation. */
class CspBrowserTest extends BrowserTestBase {

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_AUTH_MODE", "password");
  }

  @Test
  @DisplayName("the sign-in page and the app, with an answer, a table and a Vega chart, and a board with that chart"
      + " pinned, load under script-src 'self' with no violation")
  void noViolations() {
    List<String> violations = new CopyOnWriteArrayList<>();
    page.onConsoleMessage(m -> {
      if (m.text().contains("Content Security Policy")) {
        violations.add(m.text());
      }
    });
    // Reported from inside the page too: an init script is not itself subject to the page's policy.
    context.addInitScript("window.__violations = [];"
        + "document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective"
        + " + ' ' + e.blockedURI + ' ' + (e.sample || '')));");

    Response first = page.navigate(url());
    String policy = first.headers().get("content-security-policy");
    assertThat(policy).contains("script-src 'self'").contains("frame-ancestors 'none'").doesNotContain("unsafe-eval");
    assertThat(page.locator("#signin-form")).isVisible();
    assertNoViolations(violations);

    signUp();
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
    chat.gemini.next().call("execute_sql", new JsonObject().put("query",
        "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY cars DESC")).usage(100, 10);
    chat.gemini.next().answer("Most cars come from **USA**.");
    ask("Where do the cars come from?");
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);

    String conversation = page.evaluate("fetch('/api/conversations').then(r => r.json())"
        + ".then(b => b.conversations[0].id)").toString();
    String resultId = page.evaluate("fetch('/api/conversations/" + conversation + "').then(r => r.json())"
        + ".then(b => b.messages[1].result_ids[0])").toString();
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "origin").put("y", new JsonArray().add("cars")).put("title", "Cars by origin")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ask("show that as a bar chart");
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);
    page.reload();
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);
    assertNoViolations(violations);

    // The chart pinned to a new board, and the board's page, which draws it from the tile's stored copy.
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Pin to board")).last().click();
    Locator dialog = page.getByRole(AriaRole.DIALOG);
    assertThat(dialog.getByLabel("Tile title")).hasValue("Cars by origin");
    dialog.getByLabel("New board title").fill("Cars");
    dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Pin")).click();
    dialog.getByRole(AriaRole.LINK, new Locator.GetByRoleOptions().setName("Open board")).click();
    assertThat(page.locator("#board-title")).hasText("Cars");
    assertThat(page.locator(".tile .chart svg .mark-rect path")).hasCount(3);
    assertThat(page.locator("#tiles")).hasAttribute("data-checked", "true");
    assertNoViolations(violations);
  }

  private void signUp() {
    String invite = InviteCommand.run(TestNodes.env(dir), "invite", "create", "--config",
        dir.resolve("absent-config.json").toString()).await();
    page.locator("#show-signup").click();
    page.locator("#signup-email").fill("csp@example.com");
    page.getByLabel("Password (at least 8 characters)").fill("long enough");
    page.getByLabel("Invite", new com.microsoft.playwright.Page.GetByLabelOptions().setExact(true)).fill(invite);
    page.locator("#signup-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  private void ask(String question) {
    page.locator("#input").fill(question);
    page.locator("#input").press("Enter");
  }

  private void assertNoViolations(List<String> console) {
    Object reported = page.evaluate("window.__violations");
    assertThat(reported.toString()).as("securitypolicyviolation events").isEqualTo("[]");
    assertThat(console).as("console").isEmpty();
  }
}
