package io.quarry.bus;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The built-in configuration, the shipped {@code conf/config.json}: the one place a setting's default lives.
 * A verticle's settings record reads its section through {@link #section}, so a verticle deployed with part
 * of its section (as tests do) gets every other setting as a whole node would.
 */
public final class Defaults {

  /** Where {@code conf/config.json} is packaged (by this module's build). */
  public static final String RESOURCE = "quarry/config.json";

  private static final JsonObject ALL = load();

  private Defaults() {
  }

  /** Every section, a copy the caller may change. */
  public static JsonObject all() {
    return ALL.copy();
  }

  /** Section {@code name} of the defaults with the given settings over it (keys outside the section kept). */
  public static JsonObject section(String name, JsonObject given) {
    JsonObject section = ALL.getJsonObject(name);
    if (section == null) {
      throw new IllegalArgumentException("No configuration section '" + name + "'");
    }
    return section.copy().mergeIn(given == null ? new JsonObject() : given);
  }

  private static JsonObject load() {
    try (InputStream in = Defaults.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("Built-in defaults " + RESOURCE + " are missing from the jar");
      }
      return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
