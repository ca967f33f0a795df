package io.quarry.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.AriaRole;
import io.quarry.bus.StorageClient;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The account page's API tokens (issue 50, item 2), in local mode and in password mode: made in the browser, shown
 * once, working with a Bearer request from a program, revoked in the page's own dialog, and refused from then on.
 */
class AccessTokensBrowserTest extends BrowserTestBase {

  @Override
  boolean sharesNode() {
    return true;
  }

  /** A node without worker processes: nothing here runs SQL. Password mode for the test that says so. */
  @Override
  Map<String, String> env() {
    return test.getTestMethod().orElseThrow().getName().equals("passwordMode")
        ? Map.of("QUARRY_LOCAL_WORKERS", "0", "QUARRY_AUTH_MODE", "password")
        : Map.of("QUARRY_LOCAL_WORKERS", "0");
  }

  private Locator button(String name) {
    return page.getByRole(AriaRole.BUTTON, new Page.GetByRoleOptions().setName(name).setExact(true));
  }

  private Locator dialog(String name) {
    return page.getByRole(AriaRole.DIALOG, new Page.GetByRoleOptions().setName(name));
  }

  private int bearerStatus(String token) {
    HttpResponse<Buffer> response = WebClient.create(chat.node.vertx()).get(chat.node.httpPort(), "127.0.0.1",
        "/api/conversations").putHeader("Authorization", "Bearer " + token).send().await();
    return response.statusCode();
  }

  /** Makes a token named {@code name} in the open page; answers the token the page showed. */
  private String makeToken(String name) {
    button("API tokens").click();
    Locator tokens = dialog("API tokens");
    assertThat(tokens).isVisible();
    assertThat(tokens.getByLabel("Name")).isFocused();
    tokens.getByLabel("Name").fill(name);
    tokens.getByLabel("Scope").selectOption("read");
    tokens.getByLabel("Expires").selectOption("7");
    tokens.getByLabel("Name").press("Enter");
    Locator shown = tokens.getByLabel("New token");
    assertThat(shown).hasValue(java.util.regex.Pattern.compile("qt_\\S+"));
    assertThat(tokens).containsText("you won't see it again");
    assertThat(button("Copy")).isVisible();
    return shown.inputValue();
  }

  @Test
  @DisplayName("local mode: a token made in the account page is shown once (with a copy button and a note), listed"
      + " with its name, scope, created, last used (never) and expiry, works for a program's Bearer request, and once revoked"
      + " in the page's own dialog is refused with 401; axe finds nothing grave with the dialog open")
  void makeUseRevoke() {
    List<String> nativeDialogs = new ArrayList<>();
    page.onDialog(d -> {
      nativeDialogs.add(d.type());
      d.dismiss();
    });
    new PageActions(page, chat, url()).open();
    String token = makeToken("Nightly report");
    Locator tokens = dialog("API tokens");
    Locator row = tokens.getByRole(AriaRole.ROW).filter(new Locator.FilterOptions().setHasText("Nightly report"));
    assertThat(row).containsText("read");
    assertThat(row).containsText("never");
    Axe.assertNoGraveViolation(page, "API tokens dialog, a token just made");

    assertThat(bearerStatus(token)).isEqualTo(200);

    button("Close").click();
    assertThat(tokens).isHidden();
    assertThat(button("API tokens")).isFocused();
    button("API tokens").click();
    assertThat(tokens.getByLabel("New token")).isHidden();
    assertThat(page.locator("#token-text")).hasValue("");
    assertThat(page.content()).as("shown once: gone once the dialog closed").doesNotContain(token);

    button("Revoke Nightly report").click();
    Locator ask = dialog("Revoke Nightly report?");
    assertThat(ask).isVisible();
    Axe.assertNoGraveViolation(page, "revoke question open");
    ask.getByRole(AriaRole.BUTTON, new Locator.GetByRoleOptions().setName("Revoke")).click();
    assertThat(ask).isHidden();
    assertThat(row).containsText("Revoked");
    assertThat(bearerStatus(token)).isEqualTo(401);
    assertThat(nativeDialogs).isEmpty();
  }

  @Test
  @DisplayName("password mode: a signed-in user makes a token in the account page and it acts for them")
  void passwordMode() {
    page.navigate(url());
    String invite = new StorageClient(chat.node.vertx()).createInvite().await();
    page.locator("#show-signup").click();
    page.locator("#signup-email").fill("tess@example.com");
    page.getByLabel("Password (at least 8 characters)").fill("long enough");
    page.getByLabel("Invite", new Page.GetByLabelOptions().setExact(true)).fill(invite);
    page.locator("#signup-form button[type=submit]").click();
    assertThat(page.locator("body")).hasAttribute("data-ready", "true");

    String token = makeToken("Laptop");

    HttpResponse<Buffer> me = WebClient.create(chat.node.vertx()).get(chat.node.httpPort(), "127.0.0.1", "/api/me")
        .putHeader("Authorization", "Bearer " + token).send().await();
    assertThat(me.bodyAsJsonObject().getString("email")).isEqualTo("tess@example.com");
  }
}
