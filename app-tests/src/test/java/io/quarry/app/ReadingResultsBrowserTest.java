package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.BoundingBox;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Results that read well (items 6 and 7): a 10,000-character value does not make its column 65,000 px wide, its
 * full text is a hover, a focus or a click away, and the header row stays in view; numbers are right-aligned and
 * grouped in the reader's locale, a column's timestamps share one format, and copying gives the raw values; a column
 * of fractions reads rounded to the decimals it needs, its full values a hover away (issue 49), and its copies say
 * how many rows they copy.
 */
class ReadingResultsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** Ten rows a page: 20 rows, so that a page of them with one value shown whole scrolls under its header. */
  static final String ROWS = "SELECT id, note, amount, ratio, ts FROM table1, range(10) ORDER BY id, range";

  PageActions ui;

  @BeforeEach
  void open() {
    context.grantPermissions(List.of("clipboard-read", "clipboard-write"));
    chat.files.route("/types.parquet").content(TypesParquet.write(dir));
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/types.parquet", "table1 [2 × 9]");
  }

  private Locator table() {
    return page.locator(".result-table").first();
  }

  /** The cell of the first row of this page whose column is named so. */
  private Locator cell(int row, String column) {
    int index = table().locator("thead th").allTextContents().indexOf(column);
    assertThat(index).as("column " + column).isNotNegative();
    return table().locator("tbody tr").nth(row).locator("td").nth(index);
  }

  @Test
  @DisplayName("a 10,000-character value is cut with an ellipsis: its column stays narrow, its text shows on hover and "
      + "focus (saying how to read more) and whole in the cell on click, and the header row stays pinned while the rows"
      + " scroll")
  void longValuesAreCutAndReachable() {
    ui.runSql("SELECT id, note, amount, ratio, ts FROM table1, range(10) ORDER BY id DESC, range");
    assertThat(table().locator("tbody tr")).hasCount(10);
    Locator note = cell(0, "note");
    assertThat(note).hasClass(Pattern.compile("\\bclipped\\b"));
    assertThat(table().locator("thead th").nth(1).boundingBox().width).as("the note column's width").isLessThan(500);
    double scrollWidth = ((Number) page.locator(".table-scroll").first().evaluate("el => el.scrollWidth")).doubleValue();
    double boxWidth = ((Number) page.locator(".table-scroll").first().evaluate("el => el.clientWidth")).doubleValue();
    assertThat(scrollWidth).as("the table's width, about its box's").isLessThan(boxWidth * 1.5);

    note.hover();
    Locator tip = page.locator("#cell-tip");
    assertThat(tip).isVisible();
    // A tip holds a value up to 1,200 characters; past that it says how to read it all.
    assertThat(tip).hasText(Pattern.compile("^(word ){200,}"));
    assertThat(tip).containsText("characters: click the cell or press Enter to read it all");
    page.locator("#conversation-title").hover();
    assertThat(tip).isHidden();

    note.focus();
    assertThat(tip).isVisible();

    note.click();
    assertThat(note).hasClass(Pattern.compile("\\bexpanded\\b"));
    assertThat(note).hasText(Pattern.compile("^(word ){1600,}w?o?… \\[cut: 10,000 characters\\]$"));
    assertThat(note.boundingBox().height).as("the value shown whole").isGreaterThan(500);
    Locator scroll = page.locator(".table-scroll").first();
    scroll.evaluate("el => { el.scrollTop = el.scrollHeight; }");
    assertThat(table().locator("tbody tr").last()).isInViewport();
    BoundingBox head = table().locator("thead th").first().boundingBox();
    BoundingBox box = scroll.boundingBox();
    assertThat(((Number) scroll.evaluate("el => el.scrollTop")).doubleValue()).isGreaterThan(0);
    assertThat(head.y).as("the header row pinned at the top").isBetween(box.y - 1, box.y + 2);
  }

  @Test
  @DisplayName("numbers are right-aligned and grouped in the reader's locale (en-US and de-DE), a column's timestamps "
      + "share one format, and a copy of a cell or of the rows, and the CSV, give the raw values")
  void numbersAndTimestampsRead() throws Exception {
    ui.runSql(ROWS);
    assertThat(table().locator("tbody tr")).hasCount(10);
    assertThat(cell(0, "amount")).hasText("146,284,726.86");
    assertThat(cell(0, "amount")).hasCSS("text-align", "right");
    assertThat(cell(0, "ratio")).hasText("0.5");
    assertThat(cell(0, "ts")).hasText("2024-01-01 00:00:00.000000");
    page.locator(".table-footer button", new Page.LocatorOptions().setHasText("Next")).first().click();
    assertThat(cell(0, "amount")).hasText("1,234.50");
    assertThat(cell(0, "ratio")).hasText("1,234,567.25");
    assertThat(cell(0, "ts")).hasText("2024-01-01 01:00:00.001001");

    cell(0, "amount").focus();
    page.keyboard().press("Control+C");
    assertThat(clipboard()).isEqualTo("1234.5");
    page.locator(".table-footer button", new Page.LocatorOptions().setHasText("Copy all 20 rows")).first().click();
    assertThat(page.locator(".table-footer button", new Page.LocatorOptions().setHasText("Copied"))).hasCount(1);
    assertThat(clipboard()).startsWith("id\tnote\tamount\tratio\tts\n1\tshort note\t146284726.86\t0.5\t2024-01-01T00:00\n");
    Download csv = page.waitForDownload(() -> page.locator(".table-footer button",
        new Page.LocatorOptions().setHasText("Save table rows (CSV)")).first().click());
    assertThat(Files.readString(csv.path())).startsWith("id,note,amount,ratio,ts\r\n1,short note,146284726.86,0.5,"
        + "2024-01-01T00:00\r\n").contains("\r\n2,\"word word ");

    try (BrowserContext german = browser.newContext(new Browser.NewContextOptions().setViewportSize(1400, 900)
        .setLocale("de-DE"))) {
      Page seen = german.newPage();
      seen.navigate(url());
      Locator amount = seen.locator(".result-table tbody tr").first().locator("td").nth(2);
      assertThat(amount).hasText("146.284.726,86");
    }
  }

  @Test
  @DisplayName("issue 49: a column of fractions reads rounded to the decimals it needs: 30.450632111 reads 30.45 beside"
      + " 1.2 and 7, 30.4506 beside 30.4512, which differs from it at the fourth decimal; hover and focus show the full"
      + " value, and a copy of the cell or the rows gives it; a value shown whole has no tip")
  void fractionsReadRounded() {
    ui.runSql("SELECT * FROM (VALUES (1, 30.450632111::DOUBLE, 30.450632111::DOUBLE), (2, 1.2, 1.2),"
        + " (3, 30.4512, 7.0)) t(id, near, far) ORDER BY id");
    assertThat(table().locator("tbody tr")).hasCount(3);
    assertThat(table().locator("tbody td:nth-child(3)")).hasText(new String[] {"30.45", "1.2", "7"});
    assertThat(table().locator("tbody td:nth-child(2)")).hasText(new String[] {"30.4506", "1.2", "30.4512"});
    assertThat(table().locator("tbody td:nth-child(1)")).hasText(new String[] {"1", "2", "3"});

    Locator tip = page.locator("#cell-tip");
    cell(0, "far").hover();
    assertThat(tip).isVisible();
    assertThat(tip).hasText("30.450632111");
    page.locator("#conversation-title").hover();
    assertThat(tip).isHidden();
    cell(0, "near").focus();
    assertThat(tip).isVisible();
    assertThat(tip).hasText("30.450632111");
    page.keyboard().press("Control+C");
    assertThat(clipboard()).isEqualTo("30.450632111");
    cell(2, "near").focus();
    assertThat(tip).isHidden(); // 30.4512 is shown whole
    page.locator(".table-footer button", new Page.LocatorOptions().setHasText("Copy 3 rows")).click();
    assertThat(page.locator(".table-footer button", new Page.LocatorOptions().setHasText("Copied"))).hasCount(1);
    assertThat(clipboard()).isEqualTo("id\tnear\tfar\n1\t30.450632111\t30.450632111\n2\t1.2\t1.2\n3\t30.4512\t7");
  }

  @Test
  @DisplayName("issue 49: a table of 25 rows offers 'Copy this page (10 rows)' and 'Copy all 25 rows', and each copies"
      + " that many; its last page offers 'Copy this page (5 rows)'")
  void copiesSayWhatTheyCopy() {
    ui.runSql("SELECT range AS n FROM range(25)");
    assertThat(table().locator("tbody tr")).hasCount(10);
    Locator footer = page.locator(".table-footer").first();
    assertThat(footer.locator(".table-actions button")).hasText(new String[] {"Copy this page (10 rows)",
        "Copy all 25 rows", "Save table rows (CSV)"});
    Locator copies = footer.locator(".table-actions button");
    copies.nth(0).click();
    assertThat(copies.nth(0)).hasText("Copied");
    assertThat(clipboard().split("\n")).hasSize(11).startsWith("n", "0").endsWith("9");
    copies.nth(1).click();
    assertThat(copies.nth(1)).hasText("Copied");
    assertThat(clipboard().split("\n")).hasSize(26).startsWith("n", "0").endsWith("24");

    footer.getByText("Next ›").click();
    footer.getByText("Next ›").click();
    assertThat(footer.locator(".page-number")).hasText("Page 3 of 3");
    assertThat(copies.nth(0)).hasText("Copy this page (5 rows)");
    copies.nth(0).click();
    assertThat(copies.nth(0)).hasText("Copied");
    assertThat(clipboard().split("\n")).containsExactly("n", "20", "21", "22", "23", "24");
  }

  private String clipboard() {
    return (String) page.evaluate("navigator.clipboard.readText()");
  }
}
