package io.quarry.bus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** docs/bus-api.md says what the code does: its tables of failures, events and public operations match the contract. */
class BusApiDocsTest {

  private static final Path DOC = Path.of("..", "docs", "bus-api.md");

  private static String section(String heading) throws IOException {
    String doc = Files.readString(DOC);
    int start = doc.indexOf("\n" + heading + "\n");
    assertThat(start).as("the section " + heading).isNotNegative();
    int end = doc.indexOf("\n## ", start + heading.length() + 1);
    return doc.substring(start, end < 0 ? doc.length() : end);
  }

  /** The first column of a table's rows, where it is code: {@code | `x` | ...}. */
  private static List<String> firstColumn(String text) {
    Matcher m = Pattern.compile("(?m)^\\| `([^`]+)` \\|").matcher(text);
    List<String> found = new java.util.ArrayList<>();
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }

  @Test
  @DisplayName("the failure table lists every Failure, by its code and name")
  void failures() throws IOException {
    Matcher m = Pattern.compile("(?m)^\\| (\\d{3}) \\| `([A-Z_]+)` \\|").matcher(section("## Conventions"));
    Map<String, Integer> documented = new LinkedHashMap<>();
    while (m.find()) {
      documented.put(m.group(2), Integer.parseInt(m.group(1)));
    }
    assertThat(documented).isEqualTo(Arrays.stream(Failure.values())
        .collect(Collectors.toMap(Failure::name, Failure::code, (a, b) -> a, LinkedHashMap::new)));
  }

  @Test
  @DisplayName("the event table lists every type of ChatEvents, once")
  void events() throws Exception {
    List<String> documented = firstColumn(section("## Events").split("### How an answer ends")[0]);
    assertThat(documented).doesNotHaveDuplicates();
    assertThat(Set.copyOf(documented)).isEqualTo(constants(ChatEvents.class));
  }

  @Test
  @DisplayName("the public operations table lists every public operation, and every api.* address is one")
  void operations() throws Exception {
    List<String> documented = firstColumn(section("## Public operations"));
    Set<String> public_ = ApiOps.ALL.stream().map(Operation::address).collect(Collectors.toSet());
    assertThat(documented).doesNotHaveDuplicates();
    assertThat(Set.copyOf(documented)).isEqualTo(public_);
    assertThat(constants(Addresses.class).stream().filter(a -> a.startsWith("api.")).collect(Collectors.toSet()))
        .isEqualTo(public_);
  }

  private static Set<String> constants(Class<?> type) throws IllegalAccessException {
    Set<String> values = new java.util.HashSet<>();
    for (Field field : type.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        values.add((String) field.get(null));
      }
    }
    return values;
  }
}
