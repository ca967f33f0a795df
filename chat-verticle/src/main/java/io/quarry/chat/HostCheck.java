package io.quarry.chat;

import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.URI;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Against DNS rebinding: a page served under a name its author controls, later resolved to 127.0.0.1, reaches
 * this server with that name in {@code Host}, and the same-origin checks (which compare Origin with Host) let
 * it read and change everything. So a request must name this server as it knows itself: a loopback name on
 * the listening port, or one of {@code publicOrigins}. In password mode with no public origin configured any
 * name passes: a proxy in front chooses the names, and a rebound page has no session cookie for them.
 */
final class HostCheck {

  static final String MESSAGE = "This server does not answer to that name";
  private static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

  private final boolean anyName;
  private final Set<String> publicHosts;
  private final IntSupplier port;

  HostCheck(String mode, String publicOrigins, IntSupplier port) {
    this.publicHosts = Arrays.stream(publicOrigins.split(","))
        .map(String::strip).filter(s -> !s.isEmpty()).map(HostCheck::hostOf).collect(Collectors.toSet());
    this.anyName = Auth.PASSWORD.equals(mode) && publicHosts.isEmpty();
    this.port = port;
  }

  void handle(RoutingContext ctx) {
    HostAndPort authority = ctx.request().authority();
    if (anyName || authority != null && allowed(authority.host(), portOf(ctx, authority))) {
      ctx.next();
      return;
    }
    HttpErrors.send(ctx, 421, MESSAGE, "Open Quarry as http://127.0.0.1:" + port.getAsInt()
        + "/, or add the name to chat.publicOrigins (QUARRY_CHAT_PUBLIC_ORIGINS)");
  }

  private boolean allowed(String host, int requestPort) {
    String name = host.toLowerCase(Locale.ROOT);
    if (publicHosts.contains(name + ":" + requestPort)) {
      return true;
    }
    boolean loopback = name.equals("localhost") || name.equals("[::1]") || name.equals("::1")
        || LOOPBACK_V4.matcher(name).matches();
    return loopback && requestPort == port.getAsInt();
  }

  private static int portOf(RoutingContext ctx, HostAndPort authority) {
    return authority.port() >= 0 ? authority.port() : Origins.secure(ctx.request()) ? 443 : 80;
  }

  /** {@code https://quarry.example.com} → {@code quarry.example.com:443}. */
  private static String hostOf(String origin) {
    URI uri = URI.create(origin.contains("://") ? origin : "http://" + origin);
    if (uri.getHost() == null) {
      throw new IllegalArgumentException("chat.publicOrigins: '" + origin + "' is not an origin such as"
          + " https://quarry.example.com");
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    int defaultPort = "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    return host + ":" + (uri.getPort() < 0 ? defaultPort : uri.getPort());
  }
}
