package io.quarry.chat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one byte range a {@code Range} header asks of a file (RFC 9110, 14.1.2): bytes {@code from} to {@code last},
 * both included, or none of it when the file has no byte there ({@link #unsatisfiable}, for 416). A header that cannot
 * be read, or asks for several ranges, is ignored, as the RFC allows: the whole file is sent.
 */
record ByteSpan(long from, long last) {

  private static final Pattern ONE = Pattern.compile("bytes=\\s*(\\d{0,18})-(\\d{0,18})\\s*");
  private static final ByteSpan UNSATISFIABLE = new ByteSpan(-1, -1);

  /** The span of a file of {@code length} bytes {@code header} names; null for the whole file. */
  static ByteSpan parse(String header, long length) {
    Matcher one = ONE.matcher(header);
    if (!one.matches() || one.group(1).isEmpty() && one.group(2).isEmpty()) {
      return null;
    }
    if (one.group(1).isEmpty()) {
      long suffix = Long.parseLong(one.group(2));
      return suffix == 0 || length == 0 ? UNSATISFIABLE : new ByteSpan(Math.max(0, length - suffix), length - 1);
    }
    long from = Long.parseLong(one.group(1));
    long last = one.group(2).isEmpty() ? Long.MAX_VALUE : Long.parseLong(one.group(2));
    if (last < from) {
      return null;
    }
    return from >= length ? UNSATISFIABLE : new ByteSpan(from, Math.min(last, length - 1));
  }

  boolean unsatisfiable() {
    return this == UNSATISFIABLE;
  }
}
