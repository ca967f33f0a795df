package io.quarry.bus.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Classification only: literal addresses are parsed, never contacted. */
class AddressPolicyTest {

  private static boolean refused(String literal) throws Exception {
    return AddressPolicy.of(false, "").refusal(InetAddress.getByName(literal)).isPresent();
  }

  @Test
  @DisplayName("private, loopback, link-local, metadata, CGNAT, unique-local and embedded private addresses are refused")
  void privateRanges() throws Exception {
    for (String literal : new String[] {"127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255",
        "192.168.0.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "192.0.0.8",
        "198.18.0.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
        "::127.0.0.1", "2002:7f00:1::", "2002:a00:1::", "64:ff9b::7f00:1", "ff02::1"}) {
      assertThat(refused(literal)).as(literal).isTrue();
    }
  }

  @Test
  @DisplayName("every IPv6 form that leads to a loopback or private IPv4 address is refused, in hex as in dotted form:"
      + " mapped, compatible, translated (::ffff:0:0:0/96), NAT64 (well-known and local-use), 6to4, Teredo")
  void embeddedV4() throws Exception {
    for (String literal : new String[] {"::ffff:0:7f00:1", "::ffff:0:127.0.0.1", "0:0:0:0:ffff:0:7f00:1",
        "::ffff:0:a00:1", "::ffff:0:a9fe:a9fe", "::ffff:7f00:1", "0:0:0:0:0:ffff:7f00:1", "::7f00:1", "::127.0.0.1",
        "::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::127.0.0.1", "64:ff9b::c0a8:1", "64:ff9b:1::7f00:1",
        "64:ff9b:1:7f00:1::", "64:ff9b:1:7f:0:100::", "2002:7f00:1::", "2002:7f00:1:1::1", "2002:a9fe:a9fe::",
        "2001:0:7f00:1::80ff:fffe", "2001:0:4136:e378:8000:63bf:3fff:fdd2"}) {
      assertThat(refused(literal)).as(literal).isTrue();
    }
    for (String literal : new String[] {"::ffff:0:808:808", "64:ff9b::8.8.8.8", "2002:808:808:1::1", "2001:db9::1",
        "2001:1::1"}) {
      assertThat(refused(literal)).as(literal).isFalse();
    }
  }

  @Test
  @DisplayName("public addresses pass")
  void publicAddresses() throws Exception {
    for (String literal : new String[] {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888",
        "2002:808:808::", "64:ff9b::808:808"}) {
      assertThat(refused(literal)).as(literal).isFalse();
    }
  }

  @Test
  @DisplayName("allowing private networks, or one exact address, lets them through")
  void allowances() throws Exception {
    assertThat(AddressPolicy.of(true, "").refusal(InetAddress.getByName("127.0.0.1"))).isEmpty();
    AddressPolicy one = AddressPolicy.of(false, "127.0.0.1");
    assertThat(one.refusal(InetAddress.getByName("127.0.0.1"))).isEmpty();
    assertThat(one.refusal(InetAddress.getByName("127.0.0.2"))).isPresent();
    assertThat(AddressPolicy.of(false, "127.1, [::1]").allowedAddresses()).containsExactlyInAnyOrder("127.0.0.1", "0:0:0:0:0:0:0:1");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AddressPolicy.of(false, "files.internal"))
        .hasMessage("Not an IP address: files.internal");
  }

  @Test
  @DisplayName("a URL is under a trusted prefix as its server reads it: percent-decoded, dot segments resolved, whole"
      + " segments; one that servers may read in more than one way is under none")
  void trustedPrefixes() {
    String samples = "http://127.0.0.1:8080/samples/";
    AddressPolicy policy = AddressPolicy.of(false, "", samples);
    for (String escape : new String[] {"%2e%2e/api/health", "%2E%2E/", "%2e%2E/api/samples", ".%2e/api/health",
        "./../api/x", "..%2fapi", "..%2Fapi", "%2e%2e%2Fapi%2Fhealth", "a%2f..%2f..%2fapi", "..%5capi", "..;/api/health",
        "%252e%252e/api/health", "x/../../api/health", "x/..//api/health", "..", "%2e%2e", "a//b", "%00", "%zz", "%2",
        "%c0%ae%c0%ae/api", "%ff"}) {
      assertThat(policy.trusts(samples + escape)).as(escape).isFalse();
    }
    for (String trusted : new String[] {"people.parquet", "people%2Eparquet", "./people.parquet", "a/../people.parquet",
        "%2e/people.parquet", "people.parquet?x=../../api", "sub/dir/"}) {
      assertThat(policy.trusts(samples + trusted)).as(trusted).isTrue();
    }
    assertThat(policy.trusts("HTTP://127.0.0.1:8080/samples/people.parquet")).isTrue();
    for (String other : new String[] {"http://127.0.0.1:8080/samples", "http://127.0.0.1:8080/samplesX/a.parquet",
        "http://127.0.0.1:8080/api/health", "http://127.0.0.1:8081/samples/a.parquet", "https://127.0.0.1:8080/samples/a",
        "http://127.1:8080/samples/a.parquet"}) {
      assertThat(policy.trusts(other)).as(other).isFalse();
    }
    AddressPolicy noSlash = AddressPolicy.of(false, "", "http://10.0.0.1/data");
    assertThat(noSlash.trusts("http://10.0.0.1/data/a.parquet")).isTrue();
    assertThat(noSlash.trusts("http://10.0.0.1/data-private/a.parquet")).isFalse();
  }

  @Test
  @DisplayName("numeric hosts read as inet_aton reads them")
  void numericHosts() {
    assertThat(Hosts.numericV4("127.1").orElseThrow().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(Hosts.numericV4("2130706433").orElseThrow().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(Hosts.numericV4("0x7f.1").orElseThrow().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(Hosts.numericV4("0177.0.0.1").orElseThrow().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(Hosts.numericV4("10.0x100").orElseThrow().getHostAddress()).isEqualTo("10.0.1.0");
    assertThat(Hosts.numericV4("10.0x1000000")).isEmpty();
    assertThat(Hosts.numericV4("256.1.1.1")).isEmpty();
    assertThat(Hosts.numericV4("example.com")).isEmpty();
    assertThat(Hosts.numericV4("1.2.3.4.5")).isEmpty();
  }

  @Test
  @DisplayName("URLs: http and https with a host only; credentials and other schemes are not URLs we fetch")
  void urls() {
    assertThat(OutboundHttp.parse("https://example.com/a.parquet")).isPresent();
    assertThat(OutboundHttp.parse("http://127.1:8080/a.parquet")).isPresent();
    assertThat(Hosts.host(URI.create("http://127.1:8080/a"))).contains("127.1");
    assertThat(Hosts.host(URI.create("http://[::1]:8080/a"))).contains("::1");
    for (String bad : new String[] {"ftp://example.com/a", "file:///etc/passwd", "example.com/a.parquet", "https://",
        "http://user:pw@example.com/a", " https://example.com/a", "https://exa mple.com/a", "", "javascript:alert(1)",
        "http://example.com:99999999999/a", "http://example.com:0/a", "http://example.com:65536/a",
        "http://example.com:-1/a", "   ", "%%garbage%%", "http://" + "a".repeat(8_186)}) {
      assertThat(OutboundHttp.parse(bad)).as(bad).isEmpty();
    }
    assertThat(OutboundHttp.parse("http://example.com:65535/a")).isPresent();
    assertThat(OutboundHttp.parse("http://example.com:1/a")).isPresent();
    assertThat(OutboundHttp.parse("http://" + "a".repeat(8_185))).as("8,192 characters").isPresent();
  }
}
