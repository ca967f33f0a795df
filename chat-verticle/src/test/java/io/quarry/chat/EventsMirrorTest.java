package io.quarry.chat;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.bus.ChatEvents;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The browser names the socket's event types in one module, the same names and values as the server's. */
class EventsMirrorTest {

  @Test
  @DisplayName("webroot/js/events.js holds exactly ChatEvents' event types")
  void mirrors() throws IOException, IllegalAccessException {
    assertThat(browser()).isEqualTo(server()).isNotEmpty();
  }

  private static Map<String, String> server() throws IllegalAccessException {
    Map<String, String> types = new TreeMap<>();
    for (Field field : ChatEvents.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        types.put(field.getName(), (String) field.get(null));
      }
    }
    return types;
  }

  private static Map<String, String> browser() throws IOException {
    String source;
    try (InputStream in = EventsMirrorTest.class.getClassLoader().getResourceAsStream("webroot/js/events.js")) {
      assertThat(in).as("webroot/js/events.js on the classpath").isNotNull();
      source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    String block = source.substring(source.indexOf("Object.freeze({"), source.indexOf("});"));
    Map<String, String> types = new TreeMap<>();
    Matcher entry = Pattern.compile("([A-Z_]+): '([a-z_]+)'").matcher(block);
    while (entry.find()) {
      types.put(entry.group(1), entry.group(2));
    }
    return types;
  }
}
