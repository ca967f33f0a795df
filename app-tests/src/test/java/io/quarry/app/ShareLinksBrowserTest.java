package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.bus.StorageClient;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Share links in the browser (issue 52, item 1): a signed-in user shares a conversation with anyone; a second browser
 * context with no session opens the link and sees the answer (text, SQL, table, chart) and nothing else; once revoked
 * the link is "Link not found".
 */
class ShareLinksBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /**
   * Password mode with links for anyone for the test of a stranger's browser (its node serves that test alone: a shared
   * node's reset between tests is local mode's); local mode's shared node, whose default ceiling is users, otherwise.
   */
  @Override
  Map<String, String> env() {
    return test.getTestMethod().orElseThrow().getName().equals("shareOpenRevoke")
        ? Map.of("QUARRY_AUTH_MODE", "password", "QUARRY_SHARE_AUDIENCE", "anyone")
        : Map.of();
  }

  private Locator button(Page on, String name) {
    return on.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private void signUp() {
    page.navigate(url());
    signUp(page);
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  /** Signs a new account up in the sign-in screen {@code on} shows. */
  private void signUp(Page on) {
    String invite = new StorageClient(chat.node.vertx()).createInvite().await();
    on.locator("#show-signup").click();
    on.locator("#signup-email").fill("ada-" + UUID.randomUUID() + "@example.com");
    on.getByLabel("Password (at least 8 characters)").fill("long enough");
    on.getByLabel("Invite", new Page.GetByLabelOptions().setExact(true)).fill(invite);
    on.locator("#signup-form button[type=submit]").click();
  }

  /** Two answers: one with a table of cars by origin, the next with its bar chart. */
  private void answerWithTableAndChart(PageActions ui) {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", PageActions.CARS_BY_ORIGIN)).usage(100, 10);
    chat.gemini.next().answer("Most cars come from **USA**.").usage(100, 5);
    ui.ask("Where do the cars come from?");
    ui.answered();
    assertThat(page.locator(".result-table tbody tr")).hasCount(3);
    String resultId = page.locator("[id^=result-]").first().getAttribute("id").substring("result-".length());
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "origin").put("y", new JsonArray().add("cars")).put("title", "Cars by origin")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.").usage(100, 5);
    ui.ask("Show that as a bar chart");
    ui.answered();
    assertThat(page.locator(".chart svg")).hasCount(1);
  }

  @Test
  @DisplayName("a link for anyone opens in a second browser context with no session: the answers, SQL, table and chart,"
      + " the sharer's chosen name, and nothing to ask, open or add; a link for users asks to sign in and comes back;"
      + " revoked, it says 'Link not found'")
  void shareOpenRevoke() {
    PageActions ui = new PageActions(page, chat, url());
    signUp();
    ui.addCars();
    answerWithTableAndChart(ui);

    button(page, "Share").click();
    Locator dialog = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Share"));
    assertThat(dialog).isVisible();
    dialog.getByLabel("Who can open it").selectOption("anyone");
    dialog.getByLabel("Shown as").fill("Ada L.");
    dialog.getByLabel("Expires").selectOption("7");
    button(page, "Create link").click();
    Locator link = dialog.getByLabel("Share link");
    assertThat(link).hasValue(java.util.regex.Pattern.compile("http://127\\.0\\.0\\.1:\\d+/s/qs_[A-Za-z0-9_-]{43}"));
    String address = link.inputValue();
    assertThat(dialog.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("anyone with the link")))
        .hasCount(1);

    BrowserContext stranger = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900)
        .setLocale(LOCALE));
    try {
      Page viewer = stranger.newPage();
      List<String> errors = new ArrayList<>();
      viewer.onConsoleMessage(m -> {
        if ("error".equals(m.type())) {
          errors.add(m.text());
        }
      });
      viewer.navigate(address);
      assertThat(viewer.locator(".message.assistant .content").first()).containsText("Most cars come from USA.");
      assertThat(viewer.locator(".message.assistant .content strong").first()).hasText("USA");
      assertThat(viewer.locator(".message.user").first()).hasText("Where do the cars come from?");
      assertThat(viewer.locator("#shared-by")).containsText("Shared by Ada L.");
      assertThat(viewer.locator(".result-table tbody tr")).hasCount(3);
      assertThat(viewer.locator(".chart svg")).hasCount(1);
      viewer.locator(".sql-panel summary").first().click();
      assertThat(viewer.locator(".shared-sql").first()).hasText(PageActions.CARS_BY_ORIGIN);
      assertThat(viewer.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName(
          java.util.regex.Pattern.compile("Download CSV")))).hasCount(1);
      // Nothing to ask, no other conversation, no dataset to add, no way to the sharer's account.
      assertThat(viewer.getByRole(AriaRole.TEXTBOX)).hasCount(0);
      assertThat(viewer.locator("#input, #conversation-list, #dataset-url, #open-tokens, #signout")).hasCount(0);
      assertThat(viewer.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Send"))).hasCount(0);
      assertThat(viewer.content()).doesNotContain("@example.com");
      assertThat(errors).as("no script refused by the page's policy, no request refused").isEmpty();

      // A link for signed-in users: the stranger is asked to sign in (here, sign up) and comes back to it.
      dialog.getByLabel("Who can open it").selectOption("users");
      button(page, "Create link").click();
      assertThat(link).not().hasValue(address);
      String forUsers = link.inputValue();
      Page member = stranger.newPage();
      member.navigate(forUsers);
      assertThat(member.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Sign in to see this")))
          .isVisible();
      assertThat(member.locator(".message")).hasCount(0);
      member.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Sign in to see it")).click();
      signUp(member);
      assertThat(member).hasURL(forUsers);
      assertThat(member.locator(".message.assistant .content").first()).containsText("Most cars come from USA.");

      dialog.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("anyone with the link"))
          .getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(
              java.util.regex.Pattern.compile("^Revoke the link"))).click();
      Locator ask = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Revoke this link?"));
      ask.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revoke")).click();
      assertThat(ask).isHidden();
      assertThat(dialog.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("Revoked")))
          .hasCount(1);

      viewer.reload();
      assertThat(viewer.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Link not found")))
          .isVisible();
      assertThat(viewer.locator(".message")).hasCount(0);
      assertThat(viewer.request().get(address.replace("/s/", "/api/s/")).status()).isEqualTo(404);
    } finally {
      stranger.close();
    }
  }

  @Test
  @DisplayName("local mode: 'Share answer' under an answer makes a link for users (the ceiling by default: the dialog"
      + " offers no other) to that answer and its question only, which opens in another browser on this machine")
  void shareAnswer() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
    chat.gemini.next().answer("First answer.").usage(100, 5);
    ui.ask("First question");
    ui.answered();
    chat.gemini.next().answer("Second answer.").usage(100, 5);
    ui.ask("Second question");
    ui.answered();

    page.locator(".message.assistant").nth(0).getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions()
        .setName("Share answer")).click();
    Locator dialog = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Share"));
    assertThat(dialog).containsText("this answer and its question");
    assertThat(dialog.getByLabel("Who can open it").locator("option")).hasText(new String[] {
        "signed-in users of this Quarry"});
    button(page, "Create link").click();
    Locator link = dialog.getByLabel("Share link");
    assertThat(link).hasValue(java.util.regex.Pattern.compile("/s/qs_"));
    String address = link.inputValue();

    BrowserContext stranger = browser.newContext();
    try {
      Page viewer = stranger.newPage();
      viewer.navigate(address);
      assertThat(viewer.locator(".message.assistant .content")).hasText("First answer.");
      assertThat(viewer.locator(".message")).hasCount(2);
      assertThat(viewer.locator("body")).not().containsText("Second");
    } finally {
      stranger.close();
    }
  }
}
