package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.ParquetFixtures;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Tables and charts in answers tell the truth about their rows: every stored row is paged and sorted, live as
 * after a reload; a result with more rows than stored says so, and its sort is the sort of all its rows.
 */
class ResultTableBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** 1,500 sales; qty is a permutation of 0…1,499 (7,919 is prime to 1,500), spread over 400 stores. */
  static final String SALES = "SELECT i AS id, i % 400 AS store, (i * 7919) % 1500 AS qty FROM range(1500) t(i)";
  static final String BY_STORE = "SELECT store, sum(qty) AS qty FROM table1 GROUP BY store ORDER BY store";
  static final String BIGGEST_FIRST = "SELECT id, qty FROM table1 ORDER BY qty DESC";

  @BeforeEach
  void open() {
    chat.files.route("/sales.parquet").content(ParquetFixtures.write(dir.resolve("sales.parquet"), SALES));
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    page.locator("#dataset-url").fill(chat.files.url("/sales.parquet"));
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [1,500 × 3]");
  }

  private void askFor(String sql) {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query", sql)).usage(100, 10);
    chat.gemini.next().answer("Here they are.");
    page.locator("#input").fill("Show me");
    page.locator("#input").press("Enter");
    assertThat(page.locator(".message.assistant .content")).hasText("Here they are.");
  }

  /** The one whole number a SQL over the conversation answers (through the API the SQL runner uses), as tables show it. */
  private String scalar(String sql) {
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    JsonArray rows = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
        new JsonObject().put("sql", sql)).bodyAsJsonObject().getJsonArray("rows");
    return java.text.NumberFormat.getIntegerInstance(java.util.Locale.US).format(rows.getJsonArray(0).getLong(0));
  }

  private Locator table() {
    return page.locator(".message.assistant .result-table").first();
  }

  private Locator footer() {
    return page.locator(".message.assistant .table-footer").first();
  }

  private void sortByQty() {
    table().locator("th", new Locator.LocatorOptions().setHasText("qty")).click();
    assertThat(table().locator("th[aria-sort=ascending]")).hasText("qty ▲");
  }

  private Locator firstQty() {
    return table().locator("tbody tr").first().locator("td").nth(1);
  }

  @Test
  @DisplayName("a 400-row group-by pages over all 400 rows and sorts them all, live and after a reload alike")
  void everyStoredRowIsPagedAndSorted() {
    String least = scalar("SELECT min(qty) FROM (" + BY_STORE + ")");
    String leastOfFirst100 = scalar("SELECT min(qty) FROM (" + BY_STORE + " LIMIT 100)");
    assertThat(leastOfFirst100).as("the true minimum lies past the first 100 rows").isNotEqualTo(least);

    askFor(BY_STORE);
    for (int view = 0; view < 2; view++) {
      assertThat(footer().locator(".row-count")).containsText("400 rows");
      assertThat(footer()).containsText("Page 1 of 40");
      assertThat(footer()).not().containsText("Showing the first");
      sortByQty();
      assertThat(firstQty()).hasText(least);
      page.reload();
      assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    }
  }

  @Test
  @DisplayName("a result of 1,500 rows says 'Showing the first 1,000 of 1,500 rows' in the colour of information, not"
      + " of errors (issue 49), offers to copy the 1,000 rows held, and its sort is the sort of all 1,500, not of the"
      + " 1,000 stored")
  void aLongerResultSaysSoAndSortsAllItsRows() {
    askFor(BIGGEST_FIRST);
    for (int view = 0; view < 2; view++) {
      assertThat(footer().locator(".truncated")).hasText("Showing the first 1,000 of 1,500 rows");
      assertThat(footer().locator(".truncated")).not().hasCSS("color", errorColour());
      assertThat(footer().locator(".truncated")).hasCSS("color", "rgb(29, 95, 168)");
      assertThat(footer().locator(".table-actions button")).hasText(new String[] {"Copy this page (10 rows)",
          "Copy all 1,000 rows held", "Save table rows (CSV)"});
      assertThat(footer()).containsText("Page 1 of 100");
      assertThat(firstQty()).hasText("1,499");
      sortByQty();
      // The stored rows hold qty 1,499 down to 500 only: 0 comes from sorting all the rows.
      assertThat(firstQty()).hasText("0");
      assertThat(footer().locator(".truncated")).hasText("Showing the first 1,000 of 1,500 rows, sorted over all of them");
      page.reload();
      assertThat(page.locator("body")).hasAttribute("data-ready", "true");
    }
  }

  @Test
  @DisplayName("a bar chart of a top-N result keeps the result's order instead of sorting its bars by name")
  void barChartKeepsTheResultOrder() {
    chat.gemini.next().call("execute_sql", new JsonObject().put("query",
        "SELECT 'store ' || store AS store, sum(qty) AS qty FROM table1 WHERE store IN (3, 1, 2)"
            + " GROUP BY store ORDER BY sum(qty) DESC")).usage(100, 10);
    chat.gemini.next().answer("The three stores.");
    page.locator("#input").fill("Rank stores 1 to 3");
    page.locator("#input").press("Enter");
    assertThat(page.locator(".message.assistant .result-table tbody tr")).hasCount(3);
    List<String> ranked = page.locator(".message.assistant .result-table tbody tr td:first-child").allTextContents();
    assertThat(ranked).as("the fixture ranks them other than by name").isNotEqualTo(List.of("store 1", "store 2", "store 3"));

    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    String resultId = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(1)
        .getJsonArray("result_ids").getString(0);
    chat.gemini.next().call("render_chart", new JsonObject().put("result_id", resultId).put("chart_type", "bar")
        .put("x", "store").put("y", new JsonArray().add("qty")).put("title", "Stores")).usage(100, 5);
    chat.gemini.next().answer("Charted.");
    page.locator("#input").fill("Chart it");
    page.locator("#input").press("Enter");
    assertThat(page.locator(".chart svg .mark-rect path")).hasCount(3);
    assertThat(axisLabelsLeftToRight()).isEqualTo(ranked);
  }

  /** The colour the page gives a failure in a table's footer (as its failed sort says it), computed. */
  private String errorColour() {
    return (String) page.evaluate("() => { const probe = document.createElement('span');"
        + " probe.className = 'table-status error'; document.body.append(probe);"
        + " const colour = getComputedStyle(probe).color; probe.remove(); return colour; }");
  }

  /** The chart's category labels in the order they stand on the x axis. */
  @SuppressWarnings("unchecked")
  private List<String> axisLabelsLeftToRight() {
    return (List<String>) page.evaluate("() => [...document.querySelectorAll('.chart svg .role-axis-label text')]"
        + ".filter(t => t.textContent.startsWith('store '))"
        + ".sort((a, b) => a.getBoundingClientRect().x - b.getBoundingClientRect().x).map(t => t.textContent)");
  }
}
