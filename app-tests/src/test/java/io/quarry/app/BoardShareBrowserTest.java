package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.bus.StorageClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A board shared from its page (issue 52, item 2): the board's Share button opens the conversation page's share
 * dialog; a second browser context with no session opens the link and sees the board's tiles, a table's rows and a
 * chart as the board page draws them, with nothing to re-run, remove, move, share or type; revoked, the link says
 * "Link not found".
 */
class BoardShareBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** As ShareLinksBrowserTest's stranger's test (the same shared node): password mode, links for anyone. */
  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_AUTH_MODE", "password", "QUARRY_SHARE_AUDIENCE", "anyone");
  }

  private Locator button(Page on, String name) {
    return on.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private void signUp() {
    page.navigate(url());
    String invite = new StorageClient(chat.node.vertx()).createInvite().await();
    page.locator("#show-signup").click();
    page.locator("#signup-email").fill("ada-" + UUID.randomUUID() + "@example.com");
    page.getByLabel("Password (at least 8 characters)").fill("long enough");
    page.getByLabel("Invite", new Page.GetByLabelOptions().setExact(true)).fill(invite);
    page.locator("#signup-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  /** Cars by origin run in the SQL runner, pinned twice to a new board "Fleet" (a table, then a bar chart). */
  private String boardOfTwo(PageActions ui) {
    ui.addCars();
    ui.runSql(PageActions.CARS_BY_ORIGIN);
    assertThat(ui.runnerRuns().first().locator(".result-table td").first()).isVisible();
    String result = page.locator("[id^=result-]").first().getAttribute("id").substring("result-".length());
    // The pins are the boards' own API's (BoardsBrowserTest pins from the page): this test is about the link.
    return (String) page.evaluate("async (rid) => {"
        + " const post = (path, body) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },"
        + "   body: JSON.stringify(body) }).then((r) => r.json());"
        + " const board = await post('/api/boards', { title: 'Fleet' });"
        + " await post(`/api/boards/${board.id}/tiles`, { result_id: rid, kind: 'table', title: 'Cars table' });"
        + " await post(`/api/boards/${board.id}/tiles`, { result_id: rid, kind: 'chart', title: 'Cars chart',"
        + "   chart: { chart_type: 'bar', x: 'origin', y: ['cars'] } });"
        + " return board.id; }", result);
  }

  @Test
  @DisplayName("the owner shares a board of two tiles from its page; a browser with no session sees both (the table's"
      + " rows, the chart's drawing), SQL, downloads and no Re-run, Remove, move, Share or field; revoked, 'Link not"
      + " found'")
  void shareBoardOpenRevoke() {
    PageActions ui = new PageActions(page, chat, url());
    signUp();
    String board = boardOfTwo(ui);
    page.navigate(url() + "b/" + board);
    assertThat(page.locator("#tiles > .tile")).hasCount(2);

    button(page, "Share").click();
    Locator dialog = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Share"));
    assertThat(dialog).containsText("A read-only link to this board");
    dialog.getByLabel("Who can open it").selectOption("anyone");
    dialog.getByLabel("Shown as").fill("Ada L.");
    button(page, "Create link").click();
    Locator link = dialog.getByLabel("Share link");
    assertThat(link).hasValue(Pattern.compile("http://127\\.0\\.0\\.1:\\d+/s/qs_[A-Za-z0-9_-]{43}"));
    String address = link.inputValue();
    Locator row = dialog.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("The board Fleet"));
    assertThat(row).hasCount(1);

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
      assertThat(viewer.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Fleet").setExact(true)))
          .isVisible();
      assertThat(viewer.locator("#shared-by")).containsText("Board shared by Ada L.");
      Locator tiles = viewer.locator("#shared-tiles > .tile");
      assertThat(tiles).hasCount(2);
      assertThat(tiles.nth(0).getByRole(AriaRole.HEADING)).hasText("Cars table");
      assertThat(tiles.nth(0).locator(".result-table tbody tr")).hasCount(3);
      assertThat(tiles.nth(1).getByRole(AriaRole.HEADING)).hasText("Cars chart");
      assertThat(tiles.nth(1).locator("svg, canvas").first()).isVisible();
      assertThat(tiles.nth(0).locator(".tile-ran")).containsText("Ran ");
      tiles.nth(0).locator(".tile-sql summary").click();
      assertThat(tiles.nth(0).locator(".tile-sql pre")).hasText(PageActions.CARS_BY_ORIGIN);
      assertThat(viewer.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName(Pattern.compile(
          "Download CSV")))).hasCount(2);
      for (String name : new String[] {"^Re-run", "^Remove", "^Move", "^Share$", "stale"}) {
        assertThat(viewer.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(Pattern.compile(name))))
            .hasCount(0);
      }
      assertThat(viewer.locator("input, textarea, select")).hasCount(0);
      assertThat(viewer.locator("#shared-tiles > .tile[draggable=true]")).hasCount(0);
      assertThat(viewer.content()).doesNotContain("@example.com").doesNotContain(board);
      assertThat(errors).as("no script refused by the page's policy, no request refused").isEmpty();

      row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName(Pattern.compile("^Revoke the link")))
          .click();
      Locator ask = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Revoke this link?"));
      ask.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revoke")).click();
      assertThat(ask).isHidden();
      assertThat(dialog.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("Revoked")))
          .hasCount(1);

      viewer.reload();
      assertThat(viewer.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Link not found")))
          .isVisible();
      assertThat(viewer.locator("#shared-tiles > .tile")).hasCount(0);
      assertThat(viewer.request().get(address.replace("/s/", "/api/s/")).status()).isEqualTo(404);
    } finally {
      stranger.close();
    }
  }
}
