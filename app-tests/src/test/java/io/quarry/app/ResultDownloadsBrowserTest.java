package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Download;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * Keeping what an answer produced (issue 20, part 1, in the browser): every result downloads whole as CSV or Parquet
 * (not only the 1,000 rows its table holds), a refusal says why beside the result, its SQL and the answer's text copy,
 * and a chart saves as PNG and SVG.
 */
class ResultDownloadsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** 5,000 rows: a stored result keeps the first 1,000. */
  static final String FIVE_THOUSAND = "SELECT p.id, r.range AS k, p.name FROM table1 p, range(50) r ORDER BY p.id, k";
  static final String BY_AGE = "SELECT age, count(*) AS people FROM table1 GROUP BY age ORDER BY age LIMIT 5";

  PageActions ui;

  @BeforeEach
  void open() {
    context.grantPermissions(List.of("clipboard-read", "clipboard-write"));
    ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
  }

  private Locator button(Locator block, String label) {
    return block.locator(".result-actions button", new Locator.LocatorOptions().setHasText(label));
  }

  private Download download(Locator button) {
    return page.waitForDownload(button::click);
  }

  private String clipboard() {
    return (String) page.evaluate("navigator.clipboard.readText()");
  }

  private static long parquetRows(Path file) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:"); Statement s = db.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*), count(DISTINCT (id, k)) FROM read_parquet('" + file + "')")) {
      rs.next();
      assertThat(rs.getLong(2)).as("distinct rows").isEqualTo(rs.getLong(1));
      return rs.getLong(1);
    }
  }

  @Test
  @DisplayName("an answer's result of 5,000 rows, whose table holds 1,000, downloads whole as CSV (5,001 lines) and "
      + "Parquet (5,000 rows); Copy SQL and Copy answer put the SQL and the answer's markdown on the clipboard; the "
      + "table's own CSV is named apart")
  void answerResultDownloadsWhole() throws Exception {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", FIVE_THOUSAND)).usage(100, 10);
    chat.gemini.next().answer("There are **5,000** pairs.");
    ui.ask("Pair every person with 50 numbers");
    Locator block = page.locator(".message.assistant .artifact").first();
    assertThat(block.locator(".truncated")).containsText("Showing the first 1,000 of 5,000 rows");
    ui.answered();

    Download csv = download(button(block, "Download CSV"));
    List<String> lines = Files.readAllLines(csv.path());
    assertThat(lines).hasSize(5001);
    assertThat(lines.get(0)).isEqualTo("id,k,name");
    assertThat(lines.get(5000)).isEqualTo("100,49,person 100");
    assertThat(csv.suggestedFilename()).endsWith(".csv");
    assertThat(block.locator(".result-actions-status")).hasText("Downloaded 5,000 rows as CSV.");
    // Disabled while it downloaded, the button has the focus back once it is done.
    assertThat(button(block, "Download CSV")).isFocused();

    Download parquet = download(button(block, "Download Parquet"));
    assertThat(parquet.suggestedFilename()).endsWith(".parquet");
    assertThat(parquetRows(parquet.path())).isEqualTo(5000);

    button(block, "Copy SQL").click();
    assertThat(button(block, "Copied")).hasCount(1);
    assertThat(clipboard()).isEqualTo(FIVE_THOUSAND);
    page.locator(".message.assistant .answer-actions button", new Page.LocatorOptions().setHasText("Copy answer"))
        .click();
    assertThat(page.locator(".message.assistant .answer-actions button")).hasText("Copied");
    assertThat(clipboard()).isEqualTo("There are **5,000** pairs.");

    // The table's own CSV holds only the rows it has, and says so; it is not the whole result's download.
    Locator own = block.locator(".table-footer button", new Locator.LocatorOptions().setHasText("Save table rows (CSV)"));
    assertThat(own).hasAttribute("title", java.util.regex.Pattern.compile("Only the 1,000 rows this table holds"));
    assertThat(Files.readAllLines(download(own).path())).hasSize(1001);

    ui.reload();
    Locator again = page.locator(".message.assistant .artifact").first();
    assertThat(Files.readAllLines(download(button(again, "Download CSV")).path())).hasSize(5001);
    assertThat(page.locator(".message.assistant .answer-actions button")).hasText("Copy answer");
  }

  @Test
  @DisplayName("a SQL run and an edited re-run download whole too, and copy their own SQL; the re-run's button keeps"
      + " the focus")
  void runsDownloadWhole() throws Exception {
    ui.runSql(FIVE_THOUSAND);
    Locator run = ui.runnerRuns().first();
    assertThat(run.locator(".truncated")).containsText("of 5,000 rows");
    assertThat(Files.readAllLines(download(button(run, "Download CSV")).path())).hasSize(5001);
    button(run, "Copy SQL").click();
    assertThat(button(run, "Copied")).hasCount(1);
    assertThat(clipboard()).isEqualTo(FIVE_THOUSAND);

    chat.gemini.next().call("execute_sql", new JsonObject().put("query", BY_AGE)).usage(100, 10);
    chat.gemini.next().answer("Ages vary.");
    ui.ask("How old are they?");
    ui.answered();
    Locator original = page.locator(".message.assistant .artifact").first();
    assertThat(original.locator(".result-table tbody tr")).hasCount(5);
    String edited = BY_AGE.replace("LIMIT 5", "LIMIT 7");
    original.locator(".sql-panel summary").click();
    original.locator(".sql-panel textarea").fill(edited);
    original.locator(".sql-panel button").click();
    Locator rerun = page.locator(".message.assistant .artifact.run.edited");
    assertThat(rerun.locator(".result-table tbody tr")).hasCount(7);
    assertThat(original.locator(".sql-panel button")).isFocused();
    assertThat(Files.readAllLines(download(button(rerun, "Download CSV")).path())).hasSize(8);
    button(rerun, "Copy SQL").click();
    assertThat(button(rerun, "Copied")).hasCount(1);
    assertThat(clipboard()).isEqualTo(edited);
  }

  @Test
  @DisplayName("a table an answer shows again of an earlier result (render_table) downloads that result whole")
  void tableShownAgainDownloadsWhole() throws Exception {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", FIVE_THOUSAND)).usage(100, 10);
    chat.gemini.next().answer("There are 5,000 pairs.");
    ui.ask("Pair every person with 50 numbers");
    ui.answered();
    chat.gemini.next().call("render_table", new JsonObject().put("result_id", ui.firstResultId()).put("title", "Pairs"))
        .usage(100, 5);
    chat.gemini.next().answer("Here they are again.");
    ui.ask("Show them again");
    ui.answered();

    Locator shownAgain = page.locator(".message.assistant").nth(1).locator(".artifact",
        new Locator.LocatorOptions().setHas(page.locator("h3", new Page.LocatorOptions().setHasText("Pairs"))));
    assertThat(shownAgain.locator(".result-table")).hasCount(1);
    assertThat(Files.readAllLines(download(button(shownAgain, "Download CSV")).path())).hasSize(5001);
    button(shownAgain, "Copy SQL").click();
    assertThat(clipboard()).isEqualTo(FIVE_THOUSAND);
  }

  @Test
  @DisplayName("a download refused because the file changed since the result says so beside the result, in the "
      + "server's words, and nothing is downloaded")
  void refusedDownloadSaysWhy() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", BY_AGE)).usage(100, 10);
    chat.gemini.next().answer("Ages vary.");
    ui.ask("How old are they?");
    ui.answered();
    Locator block = page.locator(".message.assistant .artifact").first();
    assertThat(block.locator(".result-table tbody tr")).hasCount(5);
    chat.files.route("/people.parquet").content(ParquetFixtures.write(dir.resolve("people2.parquet"),
        "SELECT i AS id, 'person ' || i AS name, 30 + i % 7 AS age, 1.0 AS score, DATE '2024-01-01' AS joined,"
            + " true AS active FROM range(1, 121) t(i)"));
    List<Download> downloads = new java.util.ArrayList<>();
    page.onDownload(downloads::add);
    button(block, "Download CSV").click();
    Locator status = block.locator(".result-actions-status");
    assertThat(status).hasText("The CSV could not be downloaded: The data has changed since this result: run its query"
        + " again to see and export the data as it is now");
    assertThat(status).hasClass(java.util.regex.Pattern.compile("\\berror\\b"));
    assertThat(button(block, "Download CSV")).isEnabled();
    assertThat(downloads).isEmpty();
  }

  @Test
  @DisplayName("an answer's chart saves as a PNG (PNG signature) and an SVG (parses, <svg> root); a chart drawn from a"
      + " result saves too")
  void chartSavesAsImages() throws Exception {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", BY_AGE)).usage(100, 10);
    chat.gemini.next().answer("Ages vary.");
    ui.ask("How old are they?");
    ui.answered();
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", ui.firstResultId()).put("chart_type", "bar")
        .put("x", "age").put("y", new JsonArray().add("people")).put("title", "People by age")).usage(100, 5);
    chat.gemini.next().answer("Here is the chart.");
    ui.ask("Chart it");
    ui.answered();
    Locator chart = page.locator(".message.assistant").nth(1).locator(".artifact:has(.chart)");
    assertThat(chart.locator(".chart svg")).hasCount(1);

    Download png = page.waitForDownload(() -> chart.locator(".chart-image-actions button",
        new Locator.LocatorOptions().setHasText("Download PNG")).click());
    assertThat(png.suggestedFilename()).isEqualTo("people-by-age.png");
    byte[] bytes = Files.readAllBytes(png.path());
    assertThat(bytes).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    assertThat(bytes.length).isGreaterThan(1000);

    Download svg = page.waitForDownload(() -> chart.locator(".chart-image-actions button",
        new Locator.LocatorOptions().setHasText("Download SVG")).click());
    assertThat(svg.suggestedFilename()).isEqualTo("people-by-age.svg");
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(Files.readAllBytes(svg.path())));
    assertThat(doc.getDocumentElement().getNodeName()).isEqualTo("svg");
    assertThat(Files.readString(svg.path())).contains("People by age")
        .contains(chart.locator(".chart").getAttribute("data-shows"));

    Locator own = page.locator(".message.assistant").first().locator(".artifact").first();
    own.locator(".chart-actions summary").click();
    own.locator(".chart-actions button", new Locator.LocatorOptions().setHasText("Draw")).click();
    assertThat(own.locator(".chart-actions .chart svg")).hasCount(1);
    Download drawn = page.waitForDownload(() -> own.locator(".chart-image-actions button",
        new Locator.LocatorOptions().setHasText("Download PNG")).click());
    assertThat(Files.readAllBytes(drawn.path())).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  @DisplayName("a 5,000-row result sorted by k descending in its table downloads in that order and says so; 'Save table"
      + " rows (CSV)' then says it saved the 1,000 rows the table holds, not the download before it")
  void downloadFollowsTheTableSort() throws Exception {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", FIVE_THOUSAND)).usage(100, 10);
    chat.gemini.next().answer("There are **5,000** pairs.");
    ui.ask("Pair every person with 50 numbers");
    Locator block = page.locator(".message.assistant .artifact").first();
    assertThat(block.locator(".truncated")).containsText("Showing the first 1,000 of 5,000 rows");
    ui.answered();
    Locator k = block.locator("thead th").nth(1);
    k.click();
    assertThat(k).hasAttribute("aria-sort", "ascending");
    k.click();
    assertThat(k).hasAttribute("aria-sort", "descending");
    assertThat(block.locator("tbody tr").first().locator("td").nth(1)).hasText("49");

    List<String> lines = Files.readAllLines(download(button(block, "Download CSV")).path());
    assertThat(lines).hasSize(5001);
    List<Integer> ks = lines.stream().skip(1).map(line -> Integer.valueOf(line.split(",")[1])).toList();
    assertThat(ks).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    assertThat(block.locator(".result-actions-status")).hasText("Downloaded 5,000 rows as CSV, sorted by k descending.");

    Download rows = download(block.locator(".table-actions button", new Locator.LocatorOptions()
        .setHasText("Save table rows (CSV)")));
    assertThat(Files.readAllLines(rows.path())).hasSize(1001);
    assertThat(block.locator(".result-actions-status")).hasText("Saved the 1,000 rows this table holds (of 5,000 rows)"
        + " as CSV, sorted by k descending; \"Download CSV\" gives every row.");
  }
}
