package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.bus.Bus;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Tick;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Boards in the browser (issue 52, item 2): results pinned from the conversation page, a board of three tiles that
 * says "stale — re-run?" once its file changes and shows fresh data after a re-run, and tiles moved by keyboard and by
 * drag, the order kept across a reload.
 */
class BoardsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @Override
  Map<String, String> env() {
    // Opening a board asks the file's server each time, as DataChangedOnOpenBrowserTest's conversations do.
    return Map.of("QUARRY_DATASET_VERSION_CHECK_INTERVAL_MS", "0");
  }

  static final String[] QUERIES = {"SELECT count(*) AS people FROM table1", "SELECT max(id) AS top_id FROM table1",
      "SELECT count(*) FILTER (WHERE active) AS active FROM table1"};

  private Locator tiles() {
    return page.locator("#tiles > .tile");
  }

  private Locator firstCells() {
    return page.locator("#tiles > .tile .result-table tbody tr:first-child td:first-child");
  }

  private void checked() {
    assertThat(page.locator("#tiles")).hasAttribute("data-checked", "true");
  }

  private String onlyBoard() {
    return chat.send(HttpMethod.GET, "/api/boards", null).bodyAsJsonObject().getJsonArray("boards").getJsonObject(0)
        .getString("id");
  }

  /** Three SQL runs over people.parquet, each pinned to the board "People" from its own "Pin to board". */
  private void pinThree(PageActions ui) {
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    for (int i = 0; i < QUERIES.length; i++) {
      ui.runSql(QUERIES[i]);
      Locator run = ui.runnerRuns().nth(i);
      assertThat(run.locator(".result-table td").first()).isVisible();
      run.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Pin to board")).click();
      Locator dialog = page.getByRole(AriaRole.DIALOG);
      assertThat(dialog.getByLabel("Tile title")).hasValue(QUERIES[i]);
      if (i == 0) {
        assertThat(dialog.getByLabel("Board", new Locator.GetByLabelOptions().setExact(true))).hasValue("");
        dialog.getByLabel("New board title").fill("People");
        Axe.assertNoGraveViolation(page, "the pin dialog");
      }
      dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Pin")).click();
      assertThat(dialog.getByRole(AriaRole.STATUS)).hasText("Pinned to People. Open board");
      dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Close")).click();
    }
  }

  @Test
  @DisplayName("a board of three tiles pinned from the page opens with their stored data; once the file changes each"
      + " says 'stale — re-run?'; re-running one, then all, shows fresh data and no badge")
  void staleThenFresh() {
    PageActions ui = new PageActions(page, chat, url());
    pinThree(ui);
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("Boards")).click();
    page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("People")).click();
    assertThat(page).hasURL(url() + "b/" + onlyBoard());
    assertThat(page.locator("#board-title")).hasText("People");
    assertThat(tiles()).hasCount(3);
    assertThat(firstCells()).hasText(new String[] {"100", "100", "50"});
    checked();
    assertThat(page.locator(".stale-badge")).hasCount(0);

    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people120.parquet"),
        BoardsTest.PEOPLE_120));
    page.reload();
    checked();
    assertThat(page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("stale — re-run?"))).hasCount(3);
    Axe.assertNoGraveViolation(page, "a board of three stale tiles");
    assertThat(firstCells()).hasText(new String[] {"100", "100", "50"});

    tiles().first().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("stale — re-run?")).click();
    assertThat(firstCells()).hasText(new String[] {"120", "100", "50"});
    assertThat(tiles().first().locator(".stale-badge")).hasCount(0);
    assertThat(page.locator(".stale-badge")).hasCount(2);

    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Re-run all")).click();
    assertThat(firstCells()).hasText(new String[] {"120", "120", "60"});
    assertThat(page.locator(".stale-badge")).hasCount(0);
    assertThat(page.locator("#board-live")).hasText("Re-ran 3 of 3 tiles");
    page.reload();
    checked();
    assertThat(firstCells()).hasText(new String[] {"120", "120", "60"});
    assertThat(page.locator(".stale-badge")).hasCount(0);
  }

  @Test
  @DisplayName("a tile re-run from the keyboard is drawn anew with the focus on its Re-run, where the key was pressed;"
      + " Re-run all keeps the focus once it is done")
  void rerunKeepsTheFocus() {
    openAbc();
    Locator rerun = button("Re-run B");
    rerun.focus();
    rerun.evaluate("b => { b.dataset.drawnBefore = 'true'; }");
    rerun.press("Enter");
    // Said once the tile is drawn anew and the focus given back.
    assertThat(page.locator("#board-live")).hasText("B re-ran: 1 rows");
    assertThat(page.locator("#tiles [data-drawn-before]")).hasCount(0);
    assertThat(rerun).isFocused();

    Locator all = page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Re-run all"));
    all.focus();
    all.press("Enter");
    assertThat(page.locator("#board-live")).hasText("Re-ran 3 of 3 tiles");
    assertThat(all).isFocused();
  }

  /** The board of {@link #abc()}, its tiles drawn in their order. */
  private void openAbc() {
    page.navigate(url() + "b/" + abc());
    assertThat(headings()).hasText(new String[] {"A", "B", "C"});
  }

  /** The page's button named exactly {@code name}. */
  private Locator button(String name) {
    return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  /** A board "ABC" with tiles A, B and C pinned over REST. */
  private String abc() {
    String conversation = chat.conversation();
    chat.addDataset(conversation, "/people.parquet");
    String board = chat.send(HttpMethod.POST, "/api/boards", new JsonObject().put("title", "ABC")).bodyAsJsonObject()
        .getString("id");
    for (String name : new String[] {"A", "B", "C"}) {
      String result = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
          new JsonObject().put("sql", "SELECT '" + name + "' AS tile")).bodyAsJsonObject().getString("id");
      chat.send(HttpMethod.POST, "/api/boards/" + board + "/tiles", new JsonObject().put("result_id", result)
          .put("kind", "table").put("title", name));
    }
    return board;
  }

  private Locator headings() {
    return page.locator("#tiles > .tile h2");
  }

  @Test
  @DisplayName("a tile's move handle moves it with the arrow keys and End, keeping the focus, telling screen readers"
      + " where it went; the order is kept across a reload")
  void keyboardReorder() {
    openAbc();
    Locator handle = button("Move A");
    handle.focus();
    handle.press("ArrowRight");
    assertThat(page.locator("#board-live")).hasText("Moved A to position 2 of 3");
    assertThat(headings()).hasText(new String[] {"B", "A", "C"});
    assertThat(handle).isFocused();
    handle.press("End");
    assertThat(page.locator("#board-live")).hasText("Moved A to position 3 of 3");
    button("Move C").press("Home");
    assertThat(page.locator("#board-live")).hasText("Moved C to position 1 of 3");
    assertThat(headings()).hasText(new String[] {"C", "B", "A"});
    page.reload();
    assertThat(headings()).hasText(new String[] {"C", "B", "A"});
    page.navigate(url() + "boards");
    assertThat(page.getByRole(AriaRole.LINK, new Page.GetByRoleOptions().setName("ABC"))).isVisible();
    Axe.assertNoGraveViolation(page, "the list of boards");
  }

  @Test
  @DisplayName("'Schedule…' on a tile opens the schedule dialog and makes a daily schedule of the tile, which the tile"
      + " then shows; after its run, the board's tile shows the run's summary")
  void scheduledTileShowsItsRun() {
    String board = abc();
    page.navigate(url() + "b/" + board);
    assertThat(headings()).hasText(new String[] {"A", "B", "C"});
    tiles().first().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule A")).click();
    Locator dialog = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Scheduled questions"));
    assertThat(dialog).isVisible();
    dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule").setExact(true)).click();
    assertThat(dialog.locator("#schedule-list tr")).containsText(new String[] {"SELECT 'A' AS tile"});
    Axe.assertNoGraveViolation(page, "the schedule dialog on a board");
    dialog.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Close")).click();
    assertThat(tiles().first().locator(".tile-schedule")).hasText(java.util.regex.Pattern.compile(
        "^Scheduled daily at 09:00 \\(.+\\) · not run yet$"));
    assertThat(tiles().nth(1).locator(".tile-schedule")).hasText("");

    String tile = chat.send(HttpMethod.GET, "/api/boards/" + board, null).bodyAsJsonObject().getJsonArray("tiles")
        .getJsonObject(0).getString("id");
    JsonObject schedule = chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject()
        .getJsonArray("schedules").stream().map(JsonObject.class::cast)
        .filter(s -> tile.equals(s.getString("target_id"))).findFirst().orElseThrow();
    ScheduleOps.TICK.call(new Bus(chat.node.vertx()), new Tick(schedule.getString("next_run_at"))).await();
    page.reload();
    assertThat(tiles().first().locator(".tile-schedule")).containsText("· last run ");
    assertThat(tiles().first().locator(".tile-schedule")).containsText(": First run: nothing to compare with yet");
    assertThat(chat.send(HttpMethod.DELETE, "/api/boards/" + board, null).statusCode()).isEqualTo(204);
    assertThat(chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject().getJsonArray("schedules").stream()
        .map(JsonObject.class::cast).noneMatch(s -> tile.equals(s.getString("target_id")))).isTrue();
  }

  @Test
  @DisplayName("a tile dragged onto another takes its place; the order is kept across a reload")
  void dragReorder() {
    openAbc();
    tiles().nth(2).dragTo(tiles().nth(0));
    assertThat(page.locator("#board-live")).hasText("Moved C to position 1 of 3");
    assertThat(headings()).hasText(new String[] {"C", "A", "B"});
    page.reload();
    assertThat(headings()).hasText(new String[] {"C", "A", "B"});
  }
}
