package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Charts follow the page's theme (item 8): dark text on white no more in the dark theme, and a switch redraws them. */
class ChartThemeBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final String DARK_TEXT = "#e6e9ee";
  /** The dark theme's --bg, #15181d, as the SVG's style gives it. */
  static final String DARK_BACKGROUND = "rgb(21, 24, 29)";
  static final String LIGHT_TEXT = "#1b1f24";

  @Test
  @DisplayName("in the dark theme a chart's labels are light and its background dark; switching to light redraws it")
  void chartsFollowTheTheme() {
    PageActions ui = new PageActions(page, chat, url());
    ui.open();
    page.locator("#theme").selectOption("dark");
    ui.addCars();
    ui.askCarsByOrigin();
    ui.askChartOfCarsByOrigin();

    assertThat(labelFill()).isEqualToIgnoringCase(DARK_TEXT);
    assertThat(backgroundFill()).isEqualToIgnoringCase(DARK_BACKGROUND);

    page.locator("#theme").selectOption("light");
    assertThat(page.locator(".chart[data-drawn-theme=light] svg .mark-rect path")).hasCount(3);
    assertThat(labelFill()).isEqualToIgnoringCase(LIGHT_TEXT);
  }

  private String labelFill() {
    return (String) page.evaluate("document.querySelector('.chart svg .role-axis-label text').getAttribute('fill')");
  }

  /** Vega paints the background on the SVG element itself, or in a rect before the marks. */
  private String backgroundFill() {
    return (String) page.evaluate("(() => { const svg = document.querySelector('.chart svg');"
        + " const rect = svg.querySelector('rect.background');"
        + " return rect ? rect.getAttribute('fill') || rect.style.fill : svg.style.backgroundColor; })()");
  }
}
