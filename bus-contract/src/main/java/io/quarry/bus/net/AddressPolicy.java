package io.quarry.bus.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which addresses Quarry may fetch datasets from. Both the dataset pipeline and the workers' downloads
 * apply this same rule, so it lives beside the contract: by default only public unicast addresses.
 *
 * @param allowPrivate   let private, loopback and link-local addresses through (tests, local use)
 * @param allowedAddresses exact addresses allowed even when private ones are not (e.g. one internal
 *                       file server); anything else private stays refused
 * @param trustedPrefixes URL prefixes fetched whatever their address: this server's own sample files
 *                        (an IP-literal prefix, so no DNS answer can change where it leads)
 */
public record AddressPolicy(boolean allowPrivate, Set<String> allowedAddresses, Set<String> trustedPrefixes) {

  /** Each trusted prefix as its server reads it ({@link NormalUrl}); one with no single reading is refused. */
  public AddressPolicy {
    trustedPrefixes = trustedPrefixes.stream().map(prefix -> NormalUrl.of(prefix).orElseThrow(
        () -> new IllegalArgumentException("Not a URL prefix that can be trusted: " + prefix)))
        .collect(Collectors.toUnmodifiableSet());
  }

  public AddressPolicy(boolean allowPrivate, Set<String> allowedAddresses) {
    this(allowPrivate, allowedAddresses, Set.of());
  }

  public static AddressPolicy of(boolean allowPrivate, String allowedAddressesCsv) {
    return of(allowPrivate, allowedAddressesCsv, "");
  }

  public static AddressPolicy of(boolean allowPrivate, String allowedAddressesCsv, String trustedPrefixesCsv) {
    Set<String> allowed = csv(allowedAddressesCsv).stream().map(AddressPolicy::canonical).collect(Collectors.toSet());
    return new AddressPolicy(allowPrivate, allowed, Set.copyOf(csv(trustedPrefixesCsv)));
  }

  /**
   * Whether a URL lies under a trusted prefix, read as its server reads it: percent-decoded, dot segments resolved
   * ({@code /samples/%2e%2e/api/health} is {@code /api/health}), and whole segments only. A URL that servers may read in
   * more than one way (an encoded slash, say) lies under none.
   */
  public boolean trusts(String url) {
    Optional<String> normal = NormalUrl.of(url);
    return normal.isPresent() && trustedPrefixes.stream().anyMatch(prefix -> normal.get().startsWith(prefix)
        && (prefix.endsWith("/") || normal.get().length() == prefix.length()
        || normal.get().charAt(prefix.length()) == '/'));
  }

  private static java.util.List<String> csv(String text) {
    return Arrays.stream(text == null ? new String[0] : text.split(",")).map(String::strip).filter(s -> !s.isEmpty())
        .toList();
  }

  /** Why the address is refused, or empty when it may be fetched. */
  public Optional<String> refusal(InetAddress address) {
    if (allowPrivate || allowedAddresses.contains(address.getHostAddress())) {
      return Optional.empty();
    }
    return isPublic(address) ? Optional.empty()
        : Optional.of(address.getHostAddress() + " is a private, loopback or link-local address");
  }

  static boolean isPublic(InetAddress address) {
    if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
        || address.isSiteLocalAddress() || address.isMulticastAddress()) {
      return false;
    }
    if (address instanceof Inet4Address v4) {
      return isPublicV4(v4.getAddress());
    }
    byte[] b = address.getAddress();
    if ((b[0] & 0xfe) == 0xfc) {
      return false; // fc00::/7 unique local
    }
    Optional<byte[]> v4 = embeddedV4(b);
    if (v4.isPresent()) {
      return isPublicV4(v4.get());
    }
    // The rest of 64:ff9b::/32, such as 64:ff9b:1::/48 (local-use NAT64, RFC 8215), places its IPv4 address where
    // its translator's prefix length says, which no one outside knows; Teredo (2001::/32) reaches its client through
    // a relay and hides its address (inverted): neither is a dataset origin's address.
    return !startsWith(b, 0x00, 0x64, 0xff, 0x9b) && !startsWith(b, 0x20, 0x01, 0x00, 0x00);
  }

  /**
   * The IPv4 address an IPv6 one leads to, where its form says: IPv4-mapped {@code ::ffff:a.b.c.d}, IPv4-compatible
   * {@code ::a.b.c.d}, IPv4-translated {@code ::ffff:0:a.b.c.d} (SIIT), NAT64's well-known {@code 64:ff9b::a.b.c.d}
   * and 6to4's {@code 2002:AABB:CCDD::/48}. Hex forms are the same bytes ({@code ::ffff:0:7f00:1} is 127.0.0.1).
   */
  private static Optional<byte[]> embeddedV4(byte[] b) {
    boolean mapped = zero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
    boolean compatible = zero(b, 0, 12);
    boolean translated = zero(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && zero(b, 10, 12);
    boolean nat64 = startsWith(b, 0x00, 0x64, 0xff, 0x9b) && zero(b, 4, 12);
    if (mapped || compatible || translated || nat64) {
      return Optional.of(Arrays.copyOfRange(b, 12, 16));
    }
    return startsWith(b, 0x20, 0x02) ? Optional.of(Arrays.copyOfRange(b, 2, 6)) : Optional.empty();
  }

  private static boolean startsWith(byte[] b, int... prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if ((b[i] & 0xff) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  /** Whether bytes {@code from} to {@code to} (excluded) are all zero. */
  private static boolean zero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean isPublicV4(byte[] b) {
    int a0 = b[0] & 0xff;
    int a1 = b[1] & 0xff;
    return !(a0 == 0 || a0 == 10 || a0 == 127 || a0 >= 224
        || (a0 == 100 && a1 >= 64 && a1 <= 127)   // carrier-grade NAT
        || (a0 == 169 && a1 == 254)                // link-local, cloud metadata
        || (a0 == 172 && a1 >= 16 && a1 <= 31)
        || (a0 == 192 && a1 == 168)
        || (a0 == 192 && a1 == 0 && (b[2] & 0xff) == 0)
        || (a0 == 198 && (a1 == 18 || a1 == 19)));
  }

  /** An IP literal in its canonical form; a name is refused rather than looked up (this runs on an event loop). */
  private static String canonical(String address) {
    if (Hosts.numericV4(address).isPresent()) {
      return Hosts.numericV4(address).get().getHostAddress();
    }
    String literal = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
    if (!literal.contains(":")) {
      throw new IllegalArgumentException("Not an IP address: " + address);
    }
    try {
      return InetAddress.getByName(literal).getHostAddress(); // an IPv6 literal: parsed, never resolved
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Not an IP address: " + address, e);
    }
  }
}
