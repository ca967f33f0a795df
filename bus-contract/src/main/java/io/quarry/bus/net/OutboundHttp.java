package io.quarry.bus.net;

import io.netty.handler.codec.http2.Http2Error;
import io.quarry.bus.UrlSeal;
import io.quarry.bus.UrlSecrets;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.Http2Settings;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * Outbound HTTP for dataset URLs. Each hop — the first request and every redirect — resolves the host,
 * checks every address against the {@link AddressPolicy}, and connects to the checked address itself,
 * so DNS answers that change between check and connect cannot reach a refused network.
 *
 * <p>Connections to an origin are kept and reused, as a browser's are; one client per scheme, so the TLS session cache
 * (keyed by origin) serves every new connection to an origin. An https origin that offers HTTP/2 (ALPN) gets a
 * query's requests at once over {@value #HTTP2_CONNECTIONS} connections, at most {@value #HTTP2_STREAMS_PER_CONNECTION}
 * on each, so that a transfer's requests fill both connections' flow-control windows rather than one's
 * ({@value #HTTP2_STREAM_WINDOW} bytes a stream, {@value #HTTP2_CONNECTION_WINDOW} a connection). A connection carries
 * at most its window a round trip, less as credits go back in batches: through a link of 200 ms round trips at
 * 100 MB/s ({@code bench/run.sh far 100 h2 link}) a far query's first read took 1.69× its physical limit with every
 * stream on one connection of 16 MB, 1.28× over two, 1.09× over two of 32 MB. What the windows let in waits in memory
 * only while a response is paused (a disk slower than the link): see {@link #connectionWindow}. Any other origin gets
 * HTTP/1.1 over as many connections per origin as the caller says (a far origin's requests are bound by its round
 * trip, so a download uses several at once). {@code https}
 * runs on BoringSSL (netty-tcnative) where this platform has it: the JDK's TLS engine decrypts about 36 MB/s on the
 * benchmark machine, a third of a 100 MB/s link; BoringSSL keeps up.
 */
public final class OutboundHttp {

  public static final int MAX_REDIRECTS = 5;
  static final int HTTP2_CONNECTIONS = 2;
  static final int HTTP2_STREAMS_PER_CONNECTION = 16;
  /** The most requests under way at once with one HTTP/2 origin, over all its connections. */
  public static final int HTTP2_STREAMS = HTTP2_STREAMS_PER_CONNECTION * HTTP2_CONNECTIONS;
  /** The most times a request is sent when its connection closes before any answer (see {@link #exchange}). */
  static final int CLOSED_TRIES = 8;
  static final int HTTP2_STREAM_WINDOW = 4 << 20;
  static final int HTTP2_CONNECTION_WINDOW = 32 << 20;
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

  private final Vertx vertx;
  private final HttpClient plain;
  private final HttpClient secure;
  private final AddressPolicy policy;

  /**
   * Blocking: probes for BoringSSL's TLS engine (0.3 s the first time in a JVM), which every client here does, and reads
   * the heap's size its windows are bounded by, so that a process can do both off its event loops and before its roles
   * deploy.
   */
  public static void preload() {
    OpenSSLEngineOptions.isAvailable();
    ConfiguredHeap.maxBytes();
  }

  /**
   * {@code caFile}: a PEM file of the authorities to trust for https origins instead of the JVM's; blank for the JVM's.
   * {@code connectionsPerOrigin}: the most kept open to one origin; more requests wait for one of them.
   */
  public OutboundHttp(Vertx vertx, AddressPolicy policy, int connectTimeoutMs, String caFile, int connectionsPerOrigin) {
    this.vertx = vertx;
    this.policy = policy;
    PoolOptions pool = new PoolOptions().setHttp1MaxSize(connectionsPerOrigin).setHttp2MaxSize(HTTP2_CONNECTIONS);
    this.plain = vertx.createHttpClient(options(connectTimeoutMs), pool);
    HttpClientOptions secured = options(connectTimeoutMs).setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(true)
        .setHttp2ConnectionWindowSize(connectionWindow(ConfiguredHeap.maxBytes()))
        .setHttp2MultiplexingLimit(HTTP2_STREAMS_PER_CONNECTION)
        .setInitialSettings(new Http2Settings().setInitialWindowSize(HTTP2_STREAM_WINDOW));
    if (OpenSSLEngineOptions.isAvailable()) {
      secured.setSslEngineOptions(new OpenSSLEngineOptions());
    }
    if (caFile != null && !caFile.isBlank()) {
      // Checked now, not at the first https add, whose error a user would read with this path in it.
      if (!Files.isReadable(Path.of(caFile))) {
        throw new IllegalArgumentException("originCaFile (QUARRY_ORIGIN_CA_FILE): no readable file at " + caFile);
      }
      secured.setTrustOptions(new PemTrustOptions().addCertPath(caFile));
    }
    this.secure = vertx.createHttpClient(secured, pool);
  }

  /**
   * {@value #HTTP2_CONNECTION_WINDOW} bytes, or an eighth of the heap where that is less (a worker given the least,
   * 64 MB): what the two connections to an origin let in while their responses are paused stays within a quarter of
   * it. Never below a stream's window.
   */
  static int connectionWindow(long maxHeapBytes) {
    return (int) Math.max(HTTP2_STREAM_WINDOW, Math.min(HTTP2_CONNECTION_WINDOW, maxHeapBytes / 8));
  }

  private static HttpClientOptions options(int connectTimeoutMs) {
    return new HttpClientOptions().setConnectTimeout(connectTimeoutMs).setKeepAlive(true)
        .setDecompressionSupported(false);
  }

  /** A response whose body has not been read yet, and the request to reset when it is not wanted. */
  public record Exchange(HttpClientRequest request, HttpClientResponse response, URI url) {

    /**
     * How many requests this client has under way at once with its origin at most, as this answer shows: over HTTP/2,
     * the streams it allows a connection (its SETTINGS_MAX_CONCURRENT_STREAMS, up to
     * {@value OutboundHttp#HTTP2_STREAMS_PER_CONNECTION}) on each of the {@value OutboundHttp#HTTP2_CONNECTIONS} kept
     * to it; 0 over HTTP/1.1, where each request needs a connection of its own.
     */
    public long streams() {
      Http2Settings settings = response.version() == HttpVersion.HTTP_2 ? request.connection().remoteSettings() : null;
      return settings == null ? 0
          : Math.min(settings.getMaxConcurrentStreams(), HTTP2_STREAMS_PER_CONNECTION) * HTTP2_CONNECTIONS;
    }

    /**
     * Drops the rest of the response. A response that carries no body (HEAD, 204, 304, or an empty one)
     * is simply consumed, keeping the connection for the next request; any other is reset, so an
     * unwanted body is never downloaded.
     */
    public void discard() {
      try {
        response.exceptionHandler(ignored -> { });
        int status = response.statusCode();
        boolean bodiless = request.getMethod() == HttpMethod.HEAD || status == 204 || status == 304
            || "0".equals(response.getHeader("Content-Length"));
        if (bodiless) {
          response.handler(ignored -> { });
          response.end();
        } else {
          request.reset();
        }
      } catch (IllegalStateException ended) {
        // The whole response had already arrived (a small one can, before its caller looks at it), and Vert.x refuses
        // handlers then: nothing is left to drop, and its connection is already free for the next request.
      }
    }
  }

  /** Why a URL was not fetched: a refused address, a redirect loop or a redirect to no valid URL. */
  public static final class Refused extends RuntimeException {
    public Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** The longest URL a dataset may have. */
  public static final int MAX_URL_CHARS = 8_192;

  /** A valid http or https URL with a host and a port in 1–65535 (or none), or empty. */
  public static Optional<URI> parse(String url) {
    if (url == null || url.isBlank() || url.length() > MAX_URL_CHARS || !url.strip().equals(url)) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      boolean ok = (scheme.equals("http") || scheme.equals("https")) && Hosts.host(uri).isPresent();
      int port = ok ? Hosts.port(uri, scheme.equals("https")) : 0;
      return ok && port >= 1 && port <= 65_535 ? Optional.of(uri) : Optional.empty();
    } catch (URISyntaxException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  public Future<Exchange> send(HttpMethod method, URI url, Map<String, String> headers, Deadline deadline) {
    return hop(method, url, headers, deadline, 0);
  }

  private Future<Exchange> hop(HttpMethod method, URI url, Map<String, String> headers, Deadline deadline, int hops) {
    String host = Hosts.host(url).orElseThrow();
    boolean https = url.getScheme().equalsIgnoreCase("https");
    int port = Hosts.port(url, https);
    String target;
    try {
      target = pathAndQuery(url);
    } catch (UrlSeal.Unsealable e) {
      // Sealed under a key this node no longer has (it restarted): the link cannot be asked for again.
      return Future.failedFuture(new Refused(UrlSecrets.EXPIRED));
    }
    return resolve(host, hops > 0, policy.trusts(url.toString()))
        .compose(address -> {
          RequestOptions options = new RequestOptions().setMethod(method).setHost(host).setPort(port).setSsl(https)
              .setURI(target).setFollowRedirects(false)
              .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()));
          headers.forEach(options::putHeader);
          return exchange(https ? secure : plain, options, url, deadline, 0);
        })
        .compose(exchange -> follow(exchange, method, headers, deadline, hops));
  }

  /**
   * One POST of {@code body} to a callback (a scheduled question's webhook), held to the same address policy as
   * datasets, to the checked address itself; no redirect is followed (its status is the answer) and nothing is sent
   * again: the caller decides when to try anew. No trusted prefix applies: those name this server's own files.
   */
  public Future<Exchange> post(URI url, Map<String, String> headers, Buffer body, Deadline deadline) {
    String host = Hosts.host(url).orElseThrow();
    boolean https = url.getScheme().equalsIgnoreCase("https");
    int port = Hosts.port(url, https);
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    String target = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    return resolve(host, false, false).compose(address -> {
      RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
          .setSsl(https).setURI(target).setFollowRedirects(false)
          .setServer(SocketAddress.inetSocketAddress(port, address.getHostAddress()));
      headers.forEach(options::putHeader);
      return (https ? secure : plain).request(options).compose(request -> {
        deadline.track(request);
        return request.send(body).map(response -> new Exchange(request, response, url));
      });
    });
  }

  /**
   * One request and its response's head. One closed or refused before any answer came (an HTTP/2 origin's GOAWAY, as
   * nginx sends after 1,000 requests, closing the streams opened after it, or its REFUSED_STREAM; a kept-alive
   * HTTP/1.1 connection the origin closed as it was reused) is asked again, as browsers do: the origin never processed
   * it, and Quarry sends only GET and HEAD. A refused stream is asked once more; a closed one up to
   * {@value #CLOSED_TRIES} times in all, each on a new connection: a transfer has dozens of streams under way at once,
   * and an origin that goes away every few requests closes most of them each time.
   */
  private Future<Exchange> exchange(HttpClient client, RequestOptions options, URI url, Deadline deadline, int tries) {
    return client.request(options)
        .compose(request -> {
          deadline.track(request);
          return request.send().map(response -> new Exchange(request, response, url));
        })
        .recover(e -> askAgain(e, tries) ? exchange(client, options, url, deadline, tries + 1)
            : Future.failedFuture(e));
  }

  /** Closed, or refused by an HTTP/2 server as it may when busy or going away: either way, not processed. */
  private static boolean askAgain(Throwable e, int tries) {
    return e instanceof HttpClosedException ? tries + 1 < CLOSED_TRIES
        : e instanceof StreamResetException reset && reset.getCode() == Http2Error.REFUSED_STREAM.code() && tries == 0;
  }

  private Future<Exchange> follow(Exchange exchange, HttpMethod method, Map<String, String> headers, Deadline deadline,
      int hops) {
    String location = exchange.response().getHeader("Location");
    if (!REDIRECTS.contains(exchange.response().statusCode()) || location == null) {
      return Future.succeededFuture(exchange);
    }
    exchange.discard();
    if (hops >= MAX_REDIRECTS) {
      return Future.failedFuture(new Refused("Too many redirects (more than " + MAX_REDIRECTS + ")"));
    }
    Optional<URI> next;
    try {
      next = parse(exchange.url().resolve(location).toString());
    } catch (IllegalArgumentException e) {
      next = Optional.empty();
    }
    if (next.isEmpty()) {
      return Future.failedFuture(new Refused("URL redirects to an invalid or non-HTTP location"));
    }
    HttpMethod nextMethod = exchange.response().statusCode() == 303 && method != HttpMethod.HEAD ? HttpMethod.GET : method;
    return hop(nextMethod, next.get(), headers, deadline, hops + 1);
  }

  private Future<InetAddress> resolve(String host, boolean redirected, boolean trusted) {
    Optional<InetAddress> numeric = Hosts.numericV4(host);
    Future<InetAddress[]> lookup = numeric.isPresent()
        ? Future.succeededFuture(new InetAddress[] {numeric.get()})
        : vertx.executeBlocking(() -> InetAddress.getAllByName(host), false);
    return lookup
        .recover(e -> Future.failedFuture(new java.net.UnknownHostException("Could not resolve host " + host)))
        .compose(addresses -> {
          for (InetAddress address : addresses) {
            Optional<String> refusal = trusted ? Optional.empty() : policy.refusal(address);
            if (refusal.isPresent()) {
              return Future.failedFuture(new Refused((redirected ? "URL redirects to" : "URL points to")
                  + " a private or local network address, which is not allowed (" + refusal.get() + ")"));
            }
          }
          return Future.succeededFuture(addresses[0]);
        });
  }

  /** The only place a sealed URL is opened: its secrets go to its origin and nowhere else (see {@link UrlSecrets}). */
  private static String pathAndQuery(URI url) {
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    return url.getRawQuery() == null ? path : path + "?" + UrlSecrets.opened("?" + url.getRawQuery()).substring(1);
  }

  /**
   * Why a request failed, in words: a TLS failure (Vert.x says only "Failed to create SSL connection") names what
   * the handshake refused, such as a certificate no trusted authority signed or one for another name.
   */
  public static String reason(Throwable e) {
    Throwable deepest = e;
    boolean tls = false;
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      tls |= cause instanceof SSLException;
      deepest = cause;
    }
    if (tls) {
      String why = deepest.getMessage() == null ? deepest.toString() : deepest.getMessage();
      return "The TLS handshake with the server failed: " + (why.contains("certification path")
          ? "its certificate was not issued by a trusted authority (" + why + ")" : why);
    }
    if (e instanceof StreamResetException reset) {
      Http2Error code = Http2Error.valueOf(reset.getCode());
      return "The server cut the transfer short (HTTP/2 stream reset: " + (code == null ? "code " + reset.getCode()
          : code.name()) + ")";
    }
    return e.getMessage() == null ? e.toString() : e.getMessage();
  }

  public Future<Void> close() {
    return Future.join(plain.close(), secure.close()).mapEmpty();
  }
}
