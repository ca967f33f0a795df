package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import io.quarry.testing.DuckRows;
import io.quarry.testing.TextFixtures;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * CSV, TSV, NDJSON and gzipped CSV files added by URL in the browser answer a question end to end with the fake model,
 * each result the same as bare DuckDB's over the same bytes; a CSV whose row the reader refuses is not added, and its
 * card names the line.
 */
class TextDatasetsBrowserTest extends BrowserTestBase {

  /** What the model asks of each table: rows, a sum of decimals with empty fields among them, and a date range. */
  private static final String QUESTION = "SELECT count(*) AS n, sum(score) AS total, min(joined) AS first,"
      + " max(joined) AS last FROM %s";

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void open() {
    page.navigate(url());
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");
  }

  private void add(String path) {
    page.locator("#dataset-url").fill(chat.files.url(path));
    page.locator("#dataset-url").press("Enter");
  }

  /** The four files: their name, the bare reader of their bytes, their bytes. */
  private record Sample(String name, String reader, byte[] bytes) {
    int columns() {
      return reader.equals("read_json") ? 6 : 5;
    }
  }

  private static final List<Sample> SAMPLES = List.of(new Sample("people.csv", "read_csv", TextFixtures.csv()),
      new Sample("people.tsv", "read_csv", TextFixtures.tsv()),
      new Sample("people.ndjson", "read_json", TextFixtures.ndjson()),
      new Sample("people.csv.gz", "read_csv", TextFixtures.gzip(TextFixtures.csv())));

  @Test
  @DisplayName("a CSV, a TSV, an NDJSON and a gzipped CSV file by URL: each gets its card and format, and answers a"
      + " question with bare DuckDB's rows")
  void eachFormatByUrl() throws Exception {
    for (int i = 0; i < SAMPLES.size(); i++) {
      Sample sample = SAMPLES.get(i);
      chat.files.route("/" + sample.name()).content(sample.bytes());
      add("/" + sample.name());
      assertCard(i, sample);
    }
    page.locator(".dataset-card .open").nth(2).click();
    assertThat(page.locator("#schema-stats")).containsText("JSON · 120 rows · 6 columns");
    page.keyboard().press("Escape");
    askEach();
  }

  @Test
  @DisplayName("the same four files uploaded in the browser (the file picker, a progress card): each gets its card and"
      + " answers a question with bare DuckDB's rows")
  void eachFormatByUpload() throws Exception {
    for (int i = 0; i < SAMPLES.size(); i++) {
      Sample sample = SAMPLES.get(i);
      page.locator("#dataset-file").setInputFiles(local(sample));
      assertCard(i, sample);
    }
    assertThat(page.locator(".dataset-card.uploading")).hasCount(0);
    assertThat(page.locator(".dataset-card .url").first()).containsText("people.csv?sig=[redacted]");
    askEach();
  }

  @Test
  @DisplayName("the same four files by the REST upload route: each is a dataset of its format whose rows are bare"
      + " DuckDB's")
  void eachFormatByRestUpload() throws Exception {
    String conversation = chat.conversation();
    for (int i = 0; i < SAMPLES.size(); i++) {
      Sample sample = SAMPLES.get(i);
      JsonObject added = chat.client.post("/api/conversations/" + conversation + "/datasets/upload")
          .addQueryParam("name", sample.name()).putHeader("Content-Type", "application/octet-stream")
          .sendBuffer(io.vertx.core.buffer.Buffer.buffer(sample.bytes())).await().bodyAsJsonObject();
      assertThat(added.getString("format")).as(sample.name()).isEqualTo(sample.reader().equals("read_json") ? "json"
          : "csv");
      JsonObject answer = chat.send(HttpMethod.POST, "/api/conversations/" + conversation + "/query",
          new JsonObject().put("sql", String.format(QUESTION, added.getString("name")))).bodyAsJsonObject();
      assertThat(text(answer.getJsonArray("rows"))).as(sample.name()).isEqualTo(text(bare(sample)));
    }
  }

  private void assertCard(int i, Sample sample) {
    assertThat(page.locator(".dataset-card .open").nth(i)).hasText("table" + (i + 1) + " [120 × " + sample.columns()
        + "]");
  }

  /** One question per table, the model's SQL the same for each; each answer's rows are bare DuckDB's. */
  private void askEach() throws Exception {
    String conversation = chat.send(HttpMethod.GET, "/api/conversations", null).bodyAsJsonObject()
        .getJsonArray("conversations").getJsonObject(0).getString("id");
    for (int i = 0; i < SAMPLES.size(); i++) {
      String table = "table" + (i + 1);
      chat.model().next().call("execute_sql", new JsonObject().put("query", String.format(QUESTION, table)))
          .usage(100, 10);
      chat.model().next().answer("Counted " + table + ".").usage(100, 5);
      page.locator("#input").fill("How many people in " + table + "?");
      page.locator("#input").press("Enter");
      assertThat(page.locator(".message.assistant .content").nth(i)).hasText("Counted " + table + ".");
      // The turn has ended (its answer stored) once the cursor goes.
      assertThat(page.locator(".message.assistant .content.cursor")).hasCount(0);
      assertThat(page.locator(".result-table")).hasCount(i + 1);

      JsonObject answer = chat.conversationJson(conversation).getJsonArray("messages").getJsonObject(2 * i + 1);
      JsonObject result = chat.send(HttpMethod.GET, "/api/results/" + answer.getJsonArray("result_ids").getString(0),
          null).bodyAsJsonObject();
      assertThat(text(result.getJsonArray("rows"))).as(SAMPLES.get(i).name()).isEqualTo(text(bare(SAMPLES.get(i))));
    }
    assertThat(page.locator(".result-table")).hasCount(SAMPLES.size());
  }

  private Path local(Sample sample) throws Exception {
    Path local = dir.resolve(sample.name());
    if (!Files.exists(local)) {
      Files.write(local, sample.bytes());
    }
    return local;
  }

  private JsonArray bare(Sample sample) throws Exception {
    return DuckRows.of(String.format(QUESTION, sample.reader() + "('" + local(sample) + "')"));
  }

  @Test
  @DisplayName("a CSV file with a row of three fields among rows of two is not added: its card says which line and"
      + " what is wrong")
  void malformedCsvNamesItsLine() {
    chat.files.route("/broken.csv").content(TextFixtures.malformedCsv(30_000));
    add("/broken.csv");
    Locator card = page.locator(".dataset-card.not-added", new Page.LocatorOptions().setHasText("broken.csv"));
    assertThat(card.locator(".message-text")).hasText("Could not read the CSV file");
    assertThat(card.locator(".message-details")).containsText("CSV Error on Line: 30002");
    assertThat(card.locator(".message-details")).containsText("Expected Number of Columns: 2 Found: 3");
    assertThat(page.locator(".dataset-card:not(.not-added)")).hasCount(0);
  }

  /** Rows as text, so a number is compared as its value whatever JSON or JDBC made of its type. */
  private static String text(JsonArray rows) {
    StringBuilder text = new StringBuilder();
    for (Object row : rows) {
      for (Object value : (JsonArray) row) {
        text.append(value instanceof Number n ? new java.math.BigDecimal(n.toString()).stripTrailingZeros()
            .toPlainString() : String.valueOf(value)).append('|');
      }
      text.append('\n');
    }
    return text.toString();
  }

}
