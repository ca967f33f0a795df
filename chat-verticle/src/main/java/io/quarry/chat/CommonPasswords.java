package io.quarry.chat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The passwords people pick most often (a bundled list, see {@code quarry/common-passwords.NOTICE}): long
 * enough to pass the length rule, and the first ones anybody guessing tries.
 */
final class CommonPasswords {

  static final String TOO_COMMON = "This password is one of the most common ones; choose another";
  private static final String LIST = "quarry/common-passwords.txt";

  private final Set<String> common;

  private CommonPasswords(Set<String> common) {
    this.common = common;
  }

  /** Reads the bundled list (file IO: off the event loop). */
  static CommonPasswords load() {
    try (InputStream in = CommonPasswords.class.getClassLoader().getResourceAsStream(LIST)) {
      if (in == null) {
        throw new IllegalStateException("The list of common passwords is missing from the jar (" + LIST + ")");
      }
      return new CommonPasswords(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
          .map(String::strip).filter(p -> !p.isEmpty()).collect(Collectors.toUnmodifiableSet()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Case does not help: "Password1" is guessed as soon as "password1". */
  boolean contains(String password) {
    return common.contains(password.toLowerCase(Locale.ROOT));
  }

  int size() {
    return common.size();
  }
}
