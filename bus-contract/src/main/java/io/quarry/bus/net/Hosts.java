package io.quarry.bus.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Host names as browsers and C resolvers read them. Java's {@link URI} leaves the host of
 * {@code http://127.1/} undefined, and Java's resolver does not read every numeric form
 * ({@code 0x7f.1}, octal parts) as {@code inet_aton} does, so both are handled here: a numeric host is
 * an address, never a name to look up.
 */
final class Hosts {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._~-]+");
  private static final Pattern PART = Pattern.compile("0[xX][0-9a-fA-F]*|0[0-7]*|[1-9][0-9]*");

  private Hosts() {
  }

  /** The host of an http(s) URL, brackets removed from IPv6 literals, or empty when there is none. */
  static Optional<String> host(URI uri) {
    String authority = uri.getRawAuthority();
    if (authority == null || authority.contains("@")) {
      return Optional.empty();
    }
    String host;
    if (authority.startsWith("[")) {
      int end = authority.indexOf(']');
      host = end < 0 ? "" : authority.substring(1, end);
      return host.isEmpty() || !host.contains(":") ? Optional.empty() : Optional.of(host);
    }
    int colon = authority.lastIndexOf(':');
    host = colon < 0 ? authority : authority.substring(0, colon);
    return NAME.matcher(host).matches() ? Optional.of(host) : Optional.empty();
  }

  /** The port of the URL's authority, or the scheme's default. */
  static int port(URI uri, boolean https) {
    String authority = uri.getRawAuthority();
    int close = authority.lastIndexOf(']');
    int colon = authority.lastIndexOf(':');
    if (colon > close && colon < authority.length() - 1) {
      return Integer.parseInt(authority.substring(colon + 1));
    }
    return https ? 443 : 80;
  }

  /** {@code inet_aton}: one to four parts, each decimal, octal ({@code 0…}) or hex ({@code 0x…}). */
  static Optional<InetAddress> numericV4(String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length > 4) {
      return Optional.empty();
    }
    long[] values = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      if (!PART.matcher(parts[i]).matches()) {
        return Optional.empty();
      }
      String p = parts[i];
      try {
        values[i] = p.startsWith("0x") || p.startsWith("0X") ? (p.length() == 2 ? 0 : Long.parseLong(p.substring(2), 16))
            : p.length() > 1 && p.startsWith("0") ? Long.parseLong(p.substring(1), 8) : Long.parseLong(p);
      } catch (NumberFormatException e) {
        return Optional.empty();
      }
    }
    long address = 0;
    for (int i = 0; i < values.length - 1; i++) {
      if (values[i] > 255) {
        return Optional.empty();
      }
      address |= values[i] << (8 * (3 - i));
    }
    long last = values[values.length - 1];
    if (last >= (1L << (8 * (4 - (values.length - 1))))) {
      return Optional.empty();
    }
    address |= last;
    byte[] bytes = {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    try {
      return Optional.of(InetAddress.getByAddress(host, bytes));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }
}
