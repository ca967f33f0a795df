package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import com.microsoft.playwright.options.BoundingBox;
import io.quarry.testing.ParquetFixtures;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The schema modal: Enter renames and an unsaved name is not lost without a word (item 1); honest friendly types,
 * human sizes, and a modal that fits the window with its Close in view and a filter, for 201 columns (item 9).
 */
class SchemaModalBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final int VIEWPORT_HEIGHT = 900;

  PageActions ui;
  /** The browser's own dialogs the page opened (none: it asks in its own). */
  final List<String> asked = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() {
    page.onDialog(dialog -> {
      asked.add(dialog.message());
      dialog.dismiss();
    });
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  private Locator modal() {
    return page.locator("#schema-modal");
  }

  @Test
  @DisplayName("Enter in the name renames and keeps the modal open; closing with a name typed and not saved asks in "
      + "the page's own dialog, by Close and by Esc, and keeps it when told to")
  void enterRenamesAndUnsavedNamesAreNotLostSilently() {
    ui.addCars();
    page.locator(".dataset-card .open").click();
    assertThat(modal()).isVisible();
    page.locator("#schema-name").fill("cars");
    page.locator("#schema-name").press("Enter");
    assertThat(page.locator("#schema-title")).hasText("cars");
    assertThat(page.locator(".dataset-card .open")).hasText("cars [406 × 9]");
    assertThat(modal()).isVisible();
    assertThat(asked).isEmpty();

    page.locator("#schema-name").fill("vehicles");
    page.locator("#schema-close").click();
    Locator ask = page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName("Close without renaming?"));
    assertThat(ask).containsText("The new name \"vehicles\" was not saved.");
    ask.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Cancel")).click();
    assertThat(ask).hasCount(0);
    assertThat(modal()).isVisible();
    assertThat(page.locator("#schema-name")).hasValue("vehicles");

    page.locator("#schema-name").press("Escape");
    assertThat(ask).isVisible();
    assertThat(modal()).isVisible();
    page.keyboard().press("Enter");
    assertThat(modal()).isHidden();
    assertThat(page.locator(".dataset-card .open")).hasText("cars [406 × 9]");

    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-name")).hasValue("cars");
    page.locator("#schema-close").click();
    assertThat(modal()).isHidden();
    assertThat(ask).hasCount(0); // nothing unsaved, nothing asked
    assertThat(asked).as("the browser's own dialogs").isEmpty();
  }

  @Test
  @DisplayName("a time of day is 'Time', a map 'Map', bytes 'Binary' and a UUID 'UUID'; the spec's types stay")
  void friendlyTypesAreHonest() {
    chat.files.route("/types.parquet").content(TypesParquet.write(dir));
    ui.addDataset("/types.parquet", "table1 [2 × 9]");
    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-columns tr")).hasCount(9);
    assertThat(page.locator("#schema-columns tr td:nth-child(2)")).hasText(new String[] {"Integer", "Text", "Decimal",
        "Decimal", "Timestamp", "Time", "Map", "Binary", "UUID"});
  }

  @Test
  @DisplayName("201 columns: the modal fits the window with Close in view and a header that stays; a filter finds "
      + "columns; a size over a megabyte reads in MB (1.5 MB), not in thousands of KB")
  void manyColumnsFitTheWindow() {
    String columns = IntStream.range(0, 201).mapToObj(i -> "random() AS c" + i).collect(Collectors.joining(", "));
    byte[] wide = ParquetFixtures.write(dir.resolve("wide.parquet"), "SELECT " + columns + " FROM range(1000)");
    assertThat(wide.length).as("over a megabyte").isGreaterThan(1 << 20);
    chat.files.route("/wide.parquet").content(wide);
    ui.addDataset("/wide.parquet", "table1 [1,000 × 201]");
    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-columns tr")).hasCount(201);
    // The profile and the first rows arrive after the columns and make the rows taller: the layout is judged, and
    // scrolled, once everything is in (scrolled before the profile, the last row moved out of view again).
    assertThat(page.locator("#schema-profile-status")).containsText("1,000 rows. Distinct counts are estimates.");
    assertThat(page.locator("#schema-first-rows tr")).hasCount(10);

    BoundingBox box = modal().boundingBox();
    assertThat(box.y + box.height).as("the modal's lower edge").isLessThanOrEqualTo(VIEWPORT_HEIGHT);
    assertInView(closeButton());
    assertThat(page.locator("#schema-stats")).containsText(String.format(Locale.US, "%.1f MB", wide.length / 1048576.0));
    assertThat(page.locator("#schema-stats")).containsText("1,000 rows · 201 columns");

    page.locator(".schema-scroll").evaluate("el => { el.scrollTop = el.scrollHeight; }");
    assertThat(page.locator("#schema-columns tr").last()).isInViewport();
    BoundingBox head = page.locator(".schema-table thead th").first().boundingBox();
    BoundingBox scroller = page.locator(".schema-scroll").boundingBox();
    assertThat(head.y).as("the header row stays at the top of the columns").isBetween(scroller.y - 1, scroller.y + 2);
    assertInView(closeButton());

    page.locator("#schema-filter").fill("c19");
    assertThat(page.locator("#schema-columns tr")).hasCount(11);
    assertThat(page.locator("#schema-shown")).hasText("11 of 201 columns");
    page.locator("#schema-close").click();
    assertThat(modal()).isHidden();
  }

  private Locator closeButton() {
    return modal().getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Close").setExact(true));
  }

  private void assertInView(Locator locator) {
    BoundingBox box = locator.boundingBox();
    assertThat(box.y).isGreaterThanOrEqualTo(0);
    assertThat(box.y + box.height).isLessThanOrEqualTo(VIEWPORT_HEIGHT);
  }

  @Test
  @DisplayName("the modal profiles every column (nulls, min, max, distinct marked as an estimate, which figures the"
      + " footer gave with no scan), shows the first 10 rows, and on demand a column's most frequent values and"
      + " histogram")
  void profileFirstRowsAndTopValues() {
    ui.addCars();
    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-profile-status")).containsText("406 rows. Distinct counts are estimates.");
    assertThat(page.locator("#schema-profile-status")).containsText("footer statistics, with no scan");
    Locator cylinders = page.locator("#schema-columns tr").filter(new Locator.FilterOptions().setHasText("cylinders"));
    // SUMMARIZE over the sample says: min 3, max 8, approx_unique 5, no nulls; horsepower has 6 nulls (1.48 %).
    assertThat(cylinders.locator("td")).containsText(new String[] {"cylinders", "Integer", "BIGINT", "0", "3", "8",
        "≈ 5", "footer", "Top values"});
    Locator horsepower = page.locator("#schema-columns tr").filter(new Locator.FilterOptions()
        .setHasText("horsepower"));
    assertThat(horsepower.locator("td").nth(3)).hasText("6");
    assertThat(page.getByRole(AriaRole.REGION, new Page.GetByRoleOptions().setName("First rows"))
        .locator("tbody tr")).hasCount(10);
    page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName("Top values of cylinders")).click();
    assertThat(page.getByRole(AriaRole.HEADING, new Page.GetByRoleOptions().setName("Most frequent values of"
        + " cylinders"))).isVisible();
    assertThat(page.locator("#schema-top-values tr").first().locator("td")).containsText(new String[] {"4", "207"});
    assertThat(page.locator("#schema-histogram li")).not().hasCount(0);
  }
}
