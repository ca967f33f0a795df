package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.options.BoundingBox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20, part 5: on a phone-sized screen the conversation and its input fill the screen; the conversations and
 * datasets panels are drawers, each opened by its button in the header.
 */
class PhoneBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  static final int WIDTH = 390;
  static final int HEIGHT = 844;

  PageActions ui;

  @BeforeEach
  void open() {
    page.setViewportSize(WIDTH, HEIGHT);
    ui = new PageActions(page, chat, url());
    ui.open();
  }

  @Test
  @DisplayName("PHONE-1: at 390 × 844 the messages and the input fill the width, the input is at the bottom of the "
      + "screen and both panels are hidden until their buttons open them")
  void conversationFillsTheScreen() {
    page.getByText("Try sample data: Cars").click();
    assertThat(page.locator("#onboarding")).containsText("table1 is ready");
    chat.gemini.next().answer("Most cars come from USA.");
    ui.ask("Where do the cars come from?");
    ui.answered();

    assertThat(page.locator("#conversations-panel")).isHidden();
    assertThat(page.locator("#datasets-panel")).isHidden();
    assertThat(page.locator("#open-conversations")).hasAttribute("aria-expanded", "false");
    assertThat(page.locator("#open-datasets")).hasAttribute("aria-expanded", "false");
    assertThat(page.locator(".message.assistant .content")).hasText("Most cars come from USA.");
    assertThat(page.locator(".message.assistant")).isInViewport();

    BoundingBox messages = page.locator("#messages").boundingBox();
    assertThat(messages.x).as("the messages' left edge").isLessThanOrEqualTo(1);
    assertThat(messages.width).as("the messages' width").isGreaterThanOrEqualTo(WIDTH - 2);
    BoundingBox composer = page.locator("#composer").boundingBox();
    assertThat(composer.x).as("the input's left edge").isLessThanOrEqualTo(1);
    assertThat(composer.width).as("the input's width").isGreaterThanOrEqualTo(WIDTH - 2);
    assertThat(composer.y + composer.height).as("the input's lower edge").isBetween(HEIGHT - 2.0, (double) HEIGHT);
    assertThat(page.locator("#input")).isInViewport();
    BoundingBox input = page.locator("#input").boundingBox();
    assertThat(input.width).as("the text box's width").isGreaterThan(WIDTH / 2.0);
    assertThat((Number) page.evaluate("document.documentElement.scrollWidth")).as("no sideways scrolling")
        .isEqualTo(WIDTH);
  }

  @Test
  @DisplayName("PHONE-2: the conversations button opens its drawer with the list and focus inside; choosing a "
      + "conversation closes it and shows that conversation; Esc and Close close it, focus back on the button")
  void conversationsDrawer() {
    chat.gemini.next().answer("Most cars come from USA.");
    ui.ask("Where do the cars come from?");
    ui.answered();
    Locator toggle = page.locator("#open-conversations");
    Locator drawer = page.locator("#conversations-panel");

    toggle.click();
    assertThat(drawer).isVisible();
    assertThat(toggle).hasAttribute("aria-expanded", "true");
    assertThat(toggle).hasAttribute("aria-controls", "conversations-panel");
    assertThat(drawer.locator(".drawer-close")).isFocused();
    assertThat(page.locator("#conversation-list li")).hasCount(1);
    page.locator("#new-conversation").click();
    assertThat(drawer).isHidden();
    assertThat(page.locator(".message")).hasCount(0);
    assertThat(page.locator("#input")).isFocused();

    toggle.click();
    assertThat(page.locator("#conversation-list li")).hasCount(2);
    page.locator("#conversation-list .select", new com.microsoft.playwright.Page.LocatorOptions()
        .setHasText("Where do the cars come from"))
        .click();
    assertThat(drawer).isHidden();
    assertThat(toggle).hasAttribute("aria-expanded", "false");
    assertThat(page.locator(".message.assistant .content")).hasText("Most cars come from USA.");
    assertThat(page.locator("#input")).isFocused();

    toggle.click();
    assertThat(drawer).isVisible();
    page.keyboard().press("Escape");
    assertThat(drawer).isHidden();
    assertThat(toggle).isFocused();

    toggle.click();
    drawer.getByRole(com.microsoft.playwright.options.AriaRole.BUTTON,
        new Locator.GetByRoleOptions().setName("Close conversations")).click();
    assertThat(drawer).isHidden();
    assertThat(toggle).isFocused();
  }

  @Test
  @DisplayName("PHONE-3: the datasets button opens its drawer with the tables and the URL box; the page under an open "
      + "drawer takes no clicks; Esc closes it")
  void datasetsDrawer() {
    page.getByText("Try sample data: Cars").click();
    Locator toggle = page.locator("#open-datasets");
    Locator drawer = page.locator("#datasets-panel");
    toggle.click();
    assertThat(drawer).isVisible();
    assertThat(toggle).hasAttribute("aria-expanded", "true");
    assertThat(page.locator(".dataset-card .open")).hasText("table1 [406 × 9]");
    assertThat(page.locator("#dataset-url")).isInViewport();
    assertThat((Boolean) page.evaluate("document.querySelector('main.chat').inert")).as("the chat under the drawer")
        .isTrue();
    page.keyboard().press("Escape");
    assertThat(drawer).isHidden();
    assertThat(toggle).isFocused();
    assertThat((Boolean) page.evaluate("document.querySelector('main.chat').inert")).isFalse();
  }

  @Test
  @DisplayName("PHONE-4: on a wide screen the panels stand beside the conversation as before, with no drawer buttons")
  void wideScreenUnchanged() {
    page.setViewportSize(1400, 900);
    assertThat(page.locator("#conversations-panel")).isVisible();
    assertThat(page.locator("#datasets-panel")).isVisible();
    assertThat(page.locator("#open-conversations")).isHidden();
    assertThat(page.locator("#open-datasets")).isHidden();
    assertThat(page.locator("#conversations-panel .drawer-close")).isHidden();
    BoundingBox sidebar = page.locator("#conversations-panel").boundingBox();
    BoundingBox chatBox = page.locator("main.chat").boundingBox();
    BoundingBox datasets = page.locator("#datasets-panel").boundingBox();
    assertThat(sidebar.width).isEqualTo(250);
    assertThat(datasets.width).isEqualTo(320);
    assertThat(chatBox.x).isEqualTo(250);
    assertThat(chatBox.x + chatBox.width).isEqualTo(1400 - 320);
  }
}
