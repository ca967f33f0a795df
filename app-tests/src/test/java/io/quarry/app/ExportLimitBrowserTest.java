package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Locator;
import io.quarry.bus.Export;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A whole-result download past the export's limits (413) says so beside the result, and nothing downloads. */
class ExportLimitBrowserTest extends BrowserTestBase {

  @Override
  Map<String, String> env() {
    return Map.of("QUARRY_EXPORT_MAX_ROWS", "1000");
  }

  @Test
  @DisplayName("Download CSV of a 5,000-row result past export.maxRows (1,000) says the limit's message in plain words")
  void tooLargeSaysWhy() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    ui.addDataset("/people.parquet", "table1 [100 × 6]");
    ui.runSql(ResultDownloadsBrowserTest.FIVE_THOUSAND);
    Locator run = ui.runnerRuns().first();
    assertThat(run.locator(".truncated")).containsText("of 5,000 rows");
    List<Object> downloads = new ArrayList<>();
    page.onDownload(downloads::add);
    run.locator(".result-actions button", new Locator.LocatorOptions().setHasText("Download CSV")).click();
    Locator status = run.locator(".result-actions-status");
    assertThat(status).hasText("The CSV could not be downloaded: " + Export.tooManyRows(1000));
    assertThat(status).hasClass(Pattern.compile("\\berror\\b"));
    org.assertj.core.api.Assertions.assertThat(downloads).isEmpty();
  }
}
