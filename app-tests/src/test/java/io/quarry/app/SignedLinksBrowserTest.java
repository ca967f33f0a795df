package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.testing.ParquetFixtures;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a page shows of a signed link (issue 51, item 4): its card and schema modal, and a failed add's card. */
class SignedLinksBrowserTest extends BrowserTestBase {

  static final String SIGNATURE = "SECRETSIGPAGE0123456789abcdef";
  private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
      .withZone(ZoneOffset.UTC);

  PageActions ui;

  @Override
  boolean sharesNode() {
    return true;
  }

  @BeforeEach
  void open() {
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  String signed(String path, Instant signedAt) {
    return chat.files.url(path) + "?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=" + AMZ_DATE.format(signedAt)
        + "&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + SIGNATURE;
  }

  @Test
  @DisplayName("the dataset card and the schema modal show a signed link with its signature [redacted], and the page"
      + " holds the signature nowhere")
  void cardAndModal() {
    chat.files.route("/private.parquet").content(ParquetFixtures.people(dir));
    page.locator("#dataset-url").fill(signed("/private.parquet", Instant.now()));
    page.locator("#dataset-url").press("Enter");
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [100 × 6]");
    Locator shown = page.locator(".dataset-card .url");
    assertThat(shown).containsText("/private.parquet?X-Amz-Algorithm=AWS4-HMAC-SHA256");
    assertThat(shown).containsText("X-Amz-Signature=[redacted]");
    page.locator(".dataset-card .open").click();
    assertThat(page.locator("#schema-url")).containsText("X-Amz-Signature=[redacted]");
    assertThat(page.content()).doesNotContain(SIGNATURE);
  }

  @Test
  @DisplayName("an expired signed link's 'Not added' card says to paste a fresh one and shows the link redacted")
  void expired() {
    page.locator("#dataset-url").fill(signed("/old.parquet", Instant.now().minusSeconds(7_200)));
    page.locator("#dataset-url").press("Enter");
    Locator card = page.locator(".dataset-card.not-added");
    assertThat(card).containsText("The link has expired; paste a fresh one");
    assertThat(card.locator(".url")).containsText("X-Amz-Signature=[redacted]");
    assertThat(card).hasCount(1);
    assertThat(card.innerHTML()).doesNotContain(SIGNATURE);
  }
}
