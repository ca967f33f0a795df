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
    int first = b[0] & 0xff;
    if ((first & 0xfe) == 0xfc) {
      return false; // fc00::/7 unique local
    }
    if (embedsV4(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
      return isPublicV4(Arrays.copyOfRange(b, 12, 16)); // ::ffff:a.b.c.d mapped
    }
    if (embedsV4(b, 0, 12)) {
      return isPublicV4(Arrays.copyOfRange(b, 12, 16)); // ::a.b.c.d compatible
    }
    if (first == 0x20 && (b[1] & 0xff) == 0x02) {
      return isPublicV4(Arrays.copyOfRange(b, 2, 6)); // 2002::/16 6to4
    }
    if (first == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
      return isPublicV4(Arrays.copyOfRange(b, 12, 16)); // 64:ff9b::/96 NAT64
    }
    return address instanceof Inet6Address;
  }

  private static boolean embedsV4(byte[] b, int from, int to) {
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
