package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.bus.Bus;
import io.quarry.bus.ScheduleOps;
import io.quarry.bus.ScheduleOps.Tick;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Scheduled questions in the browser (issue 52, item 3): "Schedule…" on a result, the dialog, the run's outcome shown
 * in the page as it arrives, and the list with pause and delete. The node's scheduler is ticked at the schedule's due
 * time by the test, over the node's bus.
 */
class ScheduleBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String BY_ORIGIN = "SELECT origin, count(*) AS cars FROM table1 GROUP BY origin ORDER BY origin";

  PageActions ui;

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addCars();
  }

  private Locator dialog() {
    return page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Scheduled questions"));
  }

  @Test
  @DisplayName("'Schedule…' on a result makes a daily schedule at 09:00 in the browser's zone; its run shows 'Scheduled"
      + " question: First run: nothing to compare with yet (3 rows)' in the page; it is paused, resumed and deleted"
      + " from the list")
  void scheduleRunPauseDelete() {
    ui.runSql(BY_ORIGIN);
    Locator run = ui.runnerRuns().first();
    assertThat(run.locator(".result-table tbody tr")).hasCount(3);
    run.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule…")).click();
    assertThat(dialog()).isVisible();
    assertThat(page.locator("#schedule-zone")).containsText("Times are in ");
    dialog().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule").setExact(true)).click();
    Locator row = dialog().locator("#schedule-list tr");
    assertThat(row).hasCount(1);
    assertThat(row).containsText("Daily at 09:00");
    assertThat(row).containsText(BY_ORIGIN);
    Axe.assertNoGraveViolation(page, "schedule dialog with a schedule");

    JsonObject schedule = chat.send(HttpMethod.GET, "/api/schedules", null).bodyAsJsonObject()
        .getJsonArray("schedules").getJsonObject(0);
    ScheduleOps.TICK.call(new Bus(chat.node.vertx()), new Tick(schedule.getString("next_run_at"))).await();
    Locator note = page.locator("#notifications .notification");
    assertThat(note).hasText(java.util.regex.Pattern.compile(
        "Scheduled question: First run: nothing to compare with yet \\(3 rows\\)"));
    Axe.assertNoGraveViolation(page, "a run's notification");

    row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Pause")).click();
    assertThat(row).containsText("Paused");
    row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Resume")).click();
    assertThat(row).not().containsText("Paused");
    row.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Delete the schedule of " + BY_ORIGIN))
        .click();
    assertThat(dialog().locator("#schedule-list tr")).hasCount(0);
    assertThat(page.locator("#schedules-empty")).isVisible();
    dialog().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Close")).click();
    note.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Dismiss")).click();
    assertThat(page.locator("#notifications")).isHidden();
  }

  @Test
  @DisplayName("a refused schedule says why in the dialog: a webhook that is not an http(s) URL")
  void refusedSaysWhy() {
    ui.runSql(BY_ORIGIN);
    ui.runnerRuns().first().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule…")).click();
    dialog().getByLabel("Webhook (optional)").fill("ftp://example.com/hook");
    dialog().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Schedule").setExact(true)).click();
    assertThat(page.locator("#schedule-error")).hasText("Field 'webhook_url' must be an http or https URL");
    assertThat(dialog().locator("#schedule-list tr")).hasCount(0);
  }
}
