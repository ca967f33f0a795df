package io.quarry.chat;

/** What a request's {@code Accept-Encoding} allows (RFC 9110, 12.5.3). */
final class AcceptEncoding {

  private AcceptEncoding() {
  }

  /** Whether gzip is acceptable: named, or covered by {@code *}, with a weight above 0. */
  static boolean gzip(String header) {
    if (header == null) {
      return false;
    }
    boolean any = false;
    for (String coding : header.split(",")) {
      String[] parts = coding.split(";");
      String name = parts[0].trim();
      if (name.equalsIgnoreCase("gzip") || name.equalsIgnoreCase("x-gzip")) {
        return weight(parts) > 0;
      }
      if (name.equals("*")) {
        any = weight(parts) > 0;
      }
    }
    return any;
  }

  /** The coding's q, 1 when it has none; 0 when it cannot be read. */
  private static double weight(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].trim();
      if (parameter.length() > 2 && parameter.regionMatches(true, 0, "q=", 0, 2)) {
        try {
          return Double.parseDouble(parameter.substring(2).trim());
        } catch (NumberFormatException e) {
          return 0;
        }
      }
    }
    return 1;
  }
}
