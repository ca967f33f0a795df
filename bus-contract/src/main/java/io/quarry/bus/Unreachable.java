package io.quarry.bus;

import java.util.Optional;

/**
 * The message of a query's NETWORK failure names the dataset URL that could not be read (the seed's
 * "The dataset at [URL] is no longer accessible"). Built and read back here, so that a caller finds
 * the failed dataset by the exact URL, not by searching the text.
 */
public final class Unreachable {

  private static final String PREFIX = "The dataset at ";
  private static final String SUFFIX = " is no longer accessible";

  private Unreachable() {
  }

  public static String message(String url) {
    return PREFIX + url + SUFFIX;
  }

  public static Optional<String> url(String message) {
    return message != null && message.startsWith(PREFIX) && message.endsWith(SUFFIX)
        ? Optional.of(message.substring(PREFIX.length(), message.length() - SUFFIX.length()))
        : Optional.empty();
  }
}
