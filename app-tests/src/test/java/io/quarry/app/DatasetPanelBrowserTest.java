package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.testing.ParquetFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The datasets panel: failed adds cost nothing, cards say which dataset their buttons act on, refresh reports. */
class DatasetPanelBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void open() {
    page.onDialog(dialog -> dialog.accept());
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  private void add(String path) {
    page.locator("#dataset-url").fill(chat.files.url(path));
    page.locator("#dataset-url").press("Enter");
  }

  private Locator card(String path) {
    return page.locator(".dataset-card", new Page.LocatorOptions().setHasText(chat.files.url(path)));
  }

  private Locator notAdded(String path) {
    return page.locator(".dataset-card.not-added", new Page.LocatorOptions().setHasText(chat.files.url(path)));
  }

  private Locator named(String name) {
    return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  @Test
  @DisplayName("with one dataset loaded and three failed adds, more datasets load as table2, table3…; failed cards "
      + "say 'Not added' and go when retried or dismissed; the limit counts only datasets that loaded")
  void failedAddsCostNothing() {
    byte[] people = ParquetFixtures.people(dir);
    for (String path : new String[] {"/cars.parquet", "/more1.parquet", "/more2.parquet", "/more3.parquet",
        "/more4.parquet"}) {
      chat.files.route(path).content(people);
    }
    for (int i = 1; i <= 3; i++) {
      chat.files.route("/gone" + i + ".parquet").status(404);
    }
    add("/people.parquet");
    assertThat(card("/people.parquet").locator(".open")).hasText("table1 [100 × 6]");
    for (int i = 1; i <= 3; i++) {
      add("/gone" + i + ".parquet");
      assertThat(card("/gone" + i + ".parquet").locator(".message-text")).hasText("Could not access URL");
      assertThat(card("/gone" + i + ".parquet").locator(".open")).hasText("Not added");
    }
    add("/cars.parquet");
    assertThat(card("/cars.parquet").locator(".open")).hasText("table2 [100 × 6]");
    add("/more1.parquet");
    assertThat(card("/more1.parquet").locator(".open")).hasText("table3 [100 × 6]");
    assertThat(named("Remove table1")).isVisible();
    assertThat(named("Remove table3")).isVisible();

    chat.files.route("/gone1.parquet").status(0).content(people);
    named("Retry adding " + chat.files.url("/gone1.parquet")).click();
    assertThat(card("/gone1.parquet").locator(".open")).hasText("table4 [100 × 6]");
    assertThat(notAdded("/gone1.parquet")).hasCount(0);
    named("Dismiss " + chat.files.url("/gone2.parquet")).click();
    assertThat(notAdded("/gone2.parquet")).hasCount(0);

    add("/more2.parquet");
    assertThat(card("/more2.parquet").locator(".open")).hasText("table5 [100 × 6]");
    add("/more3.parquet");
    assertThat(notAdded("/more3.parquet").locator(".message-text")).hasText("Maximum 5 datasets reached");
    assertThat(page.locator("#dataset-url")).hasValue(chat.files.url("/more3.parquet"));

    page.reload();
    assertThat(page.locator(".dataset-card .open")).hasText(new String[] {"table1 [100 × 6]", "table2 [100 × 6]",
        "table3 [100 × 6]", "table4 [100 × 6]", "table5 [100 × 6]"});
  }

  @Test
  @DisplayName("issue 49 (4a): a card not added says which failure under the seed's message: the status the server"
      + " answered, what a file Quarry does not read looks like; the URL box is described by both")
  void cardSaysWhichFailure() {
    chat.files.route("/missing.parquet").status(404);
    chat.files.route("/table.csv").content("<html><body>Sign in</body></html>".getBytes(
        java.nio.charset.StandardCharsets.UTF_8));
    add("/missing.parquet");
    assertThat(notAdded("/missing.parquet").locator(".message-text")).hasText("Could not access URL");
    assertThat(notAdded("/missing.parquet").locator(".message-details"))
        .hasText("The server answered HTTP 404 Not Found");
    add("/table.csv");
    assertThat(notAdded("/table.csv").locator(".message-text")).hasText("Not a valid parquet file");
    String details = "The file does not start with PAR1: this looks like an HTML page; Quarry reads Parquet, CSV and"
        + " JSON files";
    assertThat(notAdded("/table.csv").locator(".message-details")).hasText(details);
    assertThat(page.locator("#dataset-url")).hasAccessibleDescription("Not a valid parquet file " + details);
  }

  @Test
  @DisplayName("Refresh Schema says what changed (columns added, rows) and says so when nothing changed")
  void refreshSchemaReportsChanges() {
    add("/people.parquet");
    assertThat(card("/people.parquet").locator(".open")).hasText("table1 [100 × 6]");
    card("/people.parquet").locator(".open").click();
    // The modal's profile and first rows are queries, and a query that reads a new version takes it for the dataset
    // (NewVersions) before Refresh could: the file changes once they have read the old one.
    assertThat(page.locator("#schema-profile-status")).containsText("100 rows.");
    assertThat(page.locator("#schema-first-rows tr")).hasCount(10);
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people2.parquet"),
        "SELECT i AS id, 'person ' || i AS name, 20 + i % 50 AS age, (i * 1.25)::DECIMAL(10,2) AS score,"
            + " DATE '2024-01-01' + i::INTEGER AS joined, i % 2 = 0 AS active, i * 2 AS points FROM range(1, 121) t(i)"));
    page.locator("#schema-refresh").click();
    assertThat(page.locator("#schema-status")).hasText("Schema refreshed; it changed: added points; rows 100 → 120.");
    assertThat(page.locator("#schema-columns tr")).hasCount(7);
    page.locator("#schema-refresh").click();
    assertThat(page.locator("#schema-status")).hasText("Schema refreshed: no changes.");
  }
}
