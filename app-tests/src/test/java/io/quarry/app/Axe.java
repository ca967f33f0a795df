package io.quarry.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** axe-core, from its webjar, run in the page: a page state has no serious or critical violation. */
final class Axe {

  static final String RESOURCE = "META-INF/resources/webjars/axe-core/4.6.3/axe.min.js";
  static final Set<String> GRAVE = Set.of("serious", "critical");

  private static String source;

  private Axe() {
  }

  private static synchronized String source() {
    if (source == null) {
      try (InputStream in = Axe.class.getClassLoader().getResourceAsStream(RESOURCE)) {
        assertThat(in).as(RESOURCE + " on the test classpath").isNotNull();
        source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return source;
  }

  /** The serious and critical violations axe finds in the page as it is now. */
  static List<JsonObject> graveViolations(Page page) {
    if (!(Boolean) page.evaluate("() => typeof window.axe === 'object'")) {
      // Evaluated by the browser's debugging protocol, which the page's Content-Security-Policy does not apply to.
      page.evaluate(source());
    }
    Object result = page.evaluate("async () => JSON.stringify((await axe.run(document)).violations)");
    JsonArray violations = new JsonArray((String) result);
    return violations.stream().map(JsonObject.class::cast)
        .filter(v -> GRAVE.contains(v.getString("impact"))).toList();
  }

  /** Fails, listing them, when axe finds a serious or critical violation in the page state named. */
  static void assertNoGraveViolation(Page page, String state) {
    List<JsonObject> grave = graveViolations(page);
    assertThat(grave).withFailMessage("serious or critical axe-core violations in the %s page:%n%s", state,
        describe(grave)).isEmpty();
  }

  static String describe(List<JsonObject> violations) {
    return violations.stream().map(v -> "- " + v.getString("id") + " (" + v.getString("impact") + "): "
        + v.getString("help") + "\n" + v.getJsonArray("nodes").stream().map(JsonObject.class::cast)
            .map(n -> "    " + n.getJsonArray("target").encode() + " " + n.getString("failureSummary", "")
                .replace('\n', ' '))
            .collect(Collectors.joining("\n")))
        .collect(Collectors.joining("\n"));
  }
}
