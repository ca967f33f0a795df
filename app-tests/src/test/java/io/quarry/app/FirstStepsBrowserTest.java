package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.APIResponse;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A new user's first steps: a failed add keeps its URL and says why once, on its card, with Retry (item 5); the
 * welcome text follows the datasets, a conversation gets a short title from its first question, and nothing the page
 * loads is a 404, the favicon included (item 11).
 */
class FirstStepsBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String LONG_QUESTION = "What is the average horsepower of cars by origin, and which origin has the most"
      + " cylinders on average over the years? Please chart it.";

  PageActions ui;
  final List<String> missing = new CopyOnWriteArrayList<>();

  @BeforeEach
  void open() {
    page.onResponse(response -> {
      if (response.status() == 404) {
        missing.add(response.url());
      }
    });
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  @Test
  @DisplayName("a failed add keeps its URL in the box, says why once (on its card, with Retry), and Retry adds it")
  void failedAddSaysWhyOnce() {
    chat.files.route("/later.parquet").status(404);
    String later = chat.files.url("/later.parquet");
    page.locator("#dataset-url").fill(later);
    page.locator("#dataset-url").press("Enter");
    Locator card = page.locator(".dataset-card.not-added", new Page.LocatorOptions().setHasText(later));
    assertThat(card.locator(".message-text")).hasText("Could not access URL");
    assertThat(page.getByText("Could not access URL")).hasCount(1);
    assertThat(page.locator("#dataset-url-error")).isEmpty();
    assertThat(page.locator("#dataset-url")).hasValue(later);
    assertThat(page.locator("#dataset-url")).hasAttribute("aria-invalid", "true");

    chat.files.route("/later.parquet").status(0).content(io.quarry.testing.ParquetFixtures.people(dir));
    card.getByText("Retry").click();
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [100 × 6]");
    assertThat(page.locator(".dataset-card.not-added")).hasCount(0);
    assertThat(page.locator("#dataset-url")).hasValue("");
  }

  @Test
  @DisplayName("the welcome text names the tables once datasets are added, instead of offering sample data")
  void welcomeFollowsTheDatasets() {
    Locator onboarding = page.locator("#onboarding");
    assertThat(onboarding).containsText("try sample data");
    ui.addCars();
    assertThat(onboarding).containsText("table1 is ready");
    assertThat(onboarding).not().containsText("try sample data");
    assertThat(page.locator("#samples")).isHidden();
    ui.addDataset("/people.parquet", "table2 [100 × 6]");
    assertThat(onboarding).containsText("table1 and table2 are ready");
  }

  @Test
  @DisplayName("a conversation is titled with a short title from its first question, not the question itself")
  void shortTitle() {
    chat.gemini.next().answer("About 104 hp.");
    ui.ask(LONG_QUESTION);
    String title = "What is the average horsepower of cars by…";
    assertThat(page.locator("#conversation-title")).hasText(title);
    assertThat(page.locator("#conversation-list li.active .select")).hasText(title);
    ui.answered();
    ui.reload();
    assertThat(page.locator("#conversation-title")).hasText(title);
  }

  @Test
  @DisplayName("the page links a favicon that loads, /favicon.ico is served, and nothing the page loads is a 404")
  void favicon() {
    Locator icon = page.locator("link[rel=icon]");
    assertThat(icon).hasCount(1);
    APIResponse svg = page.request().get(url() + icon.getAttribute("href").substring(1));
    assertThat(svg.status()).isEqualTo(200);
    assertThat(svg.headers().get("content-type")).startsWith("image/svg+xml");
    APIResponse ico = page.request().get(url() + "favicon.ico");
    assertThat(ico.status()).isEqualTo(200);
    assertThat(ico.headers().get("content-type")).startsWith("image/");
    ui.reload();
    assertThat(missing).isEmpty();
  }
}
