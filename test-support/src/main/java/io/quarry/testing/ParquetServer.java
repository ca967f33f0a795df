package io.quarry.testing;

import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.codec.http2.Http2Error;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.impl.Http2ServerConnection;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file server on 127.0.0.1 with switches for every way a dataset server misbehaves: missing files,
 * refused HEAD, ignored Range, slow answers, a lying Content-Length, redirects, conditional requests,
 * content that changes. It counts requests and body bytes per path.
 */
public final class ParquetServer {

  private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d+)");
  private static final Pattern SUFFIX = Pattern.compile("bytes=-(\\d+)");
  private static final int CHUNK = 64 * 1024;

  /** What a response carries: the whole file, a suffix (a file's tail, with its footer) or another range. */
  private enum Part { FULL, TAIL, RANGE }

  /** How one path behaves; every switch is off by default (a well-behaved static file server). */
  public static final class Route {
    private volatile byte[] content = new byte[0];
    private volatile java.nio.file.Path file;
    private volatile String etag;
    private volatile boolean sendEtag = true;
    private volatile int status;
    private volatile String statusBody = "";
    private volatile boolean refuseHead;
    private final AtomicLong streamsToRefuse = new AtomicLong();
    private volatile boolean ignoreRange;
    private volatile boolean ignoreConditional;
    private volatile long claimedLength = -1;
    private volatile long delayHeadMs;
    private volatile long delayTailMs;
    private volatile long delayFirstBytesMs;
    private volatile long delayOtherRangesMs;
    private volatile long delayFullMs;
    private volatile Held heldRevalidations;
    private volatile Held heldHead;
    private volatile Held heldTails;
    private volatile String redirect;
    private volatile boolean chunked;
    private volatile long bytesPerSecond;
    private volatile long nextFreeNanos;
    private volatile Held heldRanges;
    private volatile Held heldRangeRequests;
    private volatile long holdRangesAfterBytes;
    private volatile long dropRangesAfterBytes = -1;
    private volatile boolean shortRanges;
    private volatile long misplacedBy;
    private volatile boolean zeroCopy;
    private volatile String cacheControl;
    private volatile long roundTripMs;
    final AtomicLong requests = new AtomicLong();
    /** Every request's query string (null for none), for tests of what reaches the origin of a signed link. */
    final java.util.List<String> queries = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicLong rangeRequests = new AtomicLong();
    final AtomicLong tailRequests = new AtomicLong();
    final AtomicLong http2Requests = new AtomicLong();
    final AtomicLong rangeBytes = new AtomicLong();
    final AtomicLong bodyBytes = new AtomicLong();
    final AtomicLong fullDownloads = new AtomicLong();

    public Route content(byte[] bytes) {
      content = bytes;
      etag = "\"" + sha(bytes) + "\"";
      return this;
    }

    /** Serves a file from disk (for files too large to hold in memory); its ETag is its size and mtime. */
    public Route file(java.nio.file.Path path) {
      try {
        file = path;
        etag = "\"" + java.nio.file.Files.size(path) + "-" + java.nio.file.Files.getLastModifiedTime(path).toMillis() + "\"";
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return this;
    }

    long length() {
      try {
        return file != null ? java.nio.file.Files.size(file) : content.length;
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    /** Every request is answered {@code code} with {@code body}, as an origin's XML refusal. */
    public Route status(int code, String body) {
      statusBody = body;
      return status(code);
    }

    public Route status(int code) {
      status = code;
      return this;
    }

    public Route refuseHead() {
      refuseHead = true;
      return this;
    }

    /** Over HTTP/2, the next {@code streams} requests are refused unanswered (RST_STREAM REFUSED_STREAM). */
    public Route refuseStreams(long streams) {
      streamsToRefuse.set(streams);
      return this;
    }

    public Route ignoreRange() {
      ignoreRange = true;
      return this;
    }

    /** Starts every answer this long after its request, as an origin far away does (one round trip). */
    public Route roundTrip(long ms) {
      this.roundTripMs = ms;
      return this;
    }

    /** Sends {@code Cache-Control: value} with every answer (null: none, the default). */
    public Route cacheControl(String value) {
      this.cacheControl = value;
      return this;
    }

    public Route noEtag() {
      sendEtag = false;
      return this;
    }

    public Route ignoreConditional() {
      ignoreConditional = true;
      return this;
    }

    /** HEAD claims this size whatever the content. */
    /**
     * The file's length as the server claims it: HEAD's Content-Length and the total of a suffix range's
     * Content-Range (whose body is still the real file's last bytes).
     */
    public Route claimLength(long length) {
      claimedLength = length;
      return this;
    }

    public Route delayHead(long ms) {
      delayHeadMs = ms;
      return this;
    }

    /** Delays suffix ranges ({@code bytes=-N}: a file's tail, with its size and footer). */
    public Route delayTail(long ms) {
      delayTailMs = ms;
      return this;
    }

    /** Delays explicit ranges that start at byte 0 (the magic-number check). */
    public Route delayFirstBytes(long ms) {
      delayFirstBytesMs = ms;
      return this;
    }

    /** Delays every other explicit range (a footer longer than the tail, columns). */
    public Route delayOtherRanges(long ms) {
      delayOtherRangesMs = ms;
      return this;
    }

    /** HEAD requests (the first step of adding a dataset) wait unanswered until {@link Held#release()}. */
    public Held holdHead() {
      Held held = new Held();
      heldHead = held;
      return held;
    }

    /** Unconditional suffix ranges (the first request of adding a dataset) wait unanswered until {@link Held#release()}. */
    public Held holdTails() {
      Held held = new Held();
      heldTails = held;
      return held;
    }

    /** Revalidations (conditional GETs) wait unanswered until {@link Held#release()}. */
    public Held holdRevalidations() {
      Held held = new Held();
      heldRevalidations = held;
      return held;
    }

    public Route delayFull(long ms) {
      delayFullMs = ms;
      return this;
    }

    /** Full responses without Content-Length, so a client only learns the size by reading. */
    public Route chunked() {
      chunked = true;
      return this;
    }

    /**
     * Sends a file's bodies with the kernel's sendfile, as a production static server does (a file read a chunk at a
     * time through the event loop serves loopback at a fifth of that speed, and a benchmark would measure this
     * server). Throttles, holds and drops set on this route no longer apply to its bodies, and a body counts toward
     * the byte counters once it has all been sent.
     */
    public Route zeroCopy() {
      this.zeroCopy = true;
      return this;
    }

    /**
     * Sends every body of this path at most this fast, all responses together (a link's bandwidth), so that
     * benchmarks see times like a real network's.
     */
    public Route throttle(long bytesPerSecond) {
      this.bytesPerSecond = bytesPerSecond;
      return this;
    }

    /**
     * Responses to explicit ranges (column chunks, not a file's tail) send their first {@code bytes} and then
     * wait, the rest unsent, until {@link Held#release()}; {@link Held#arrived()} tells a test that a fetch has
     * come that far.
     */
    public Held holdRangesAfter(long bytes) {
      Held held = new Held();
      heldRanges = held;
      holdRangesAfterBytes = bytes;
      return held;
    }

    /**
     * Requests for explicit ranges wait unanswered (before the server looks at them, so a change of content meanwhile
     * is what they see) until {@link Held#release()}.
     */
    public Held holdRangeRequests() {
      Held held = new Held();
      heldRangeRequests = held;
      return held;
    }

    /** Responses to explicit ranges send their first {@code bytes}, then the connection is dropped; -1 for never. */
    public Route dropRangesAfter(long bytes) {
      dropRangesAfterBytes = bytes;
      return this;
    }

    /** Responses to explicit ranges carry only the first half of the bytes asked for (and say so), or again all. */
    public Route shortRanges(boolean on) {
      shortRanges = on;
      return this;
    }

    /**
     * Ranges (a file's tail too) that start at {@code bytes} or later are answered with the bytes asked for under a
     * {@code Content-Range} {@code bytes} earlier, which names other bytes of the file than those sent; 0: the truth.
     */
    public Route misplaceRanges(long bytes) {
      misplacedBy = bytes;
      return this;
    }

    /** Body bytes sent in answer to explicit ranges (column chunks). */
    public long rangeBytes() {
      return rangeBytes.get();
    }

    /** Requests with an explicit range (column chunks), answered or not. */
    /** Requests that came over HTTP/2. */
    public long http2Requests() {
      return http2Requests.get();
    }

    /** Requests for a suffix range ({@code bytes=-N}), redirected or answered. */
    public long tailRequests() {
      return tailRequests.get();
    }

    public long rangeRequests() {
      return rangeRequests.get();
    }

    public Route redirectTo(String url) {
      redirect = url;
      return this;
    }

    public long requests() {
      return requests.get();
    }

    /** The query string of every request so far, in order. */
    public java.util.List<String> queries() {
      return java.util.List.copyOf(queries);
    }

    /** Body bytes this path has sent (headers not counted). */
    public long bodyBytes() {
      return bodyBytes.get();
    }

    /** Complete (non-ranged, 200) GET responses. */
    public long fullDownloads() {
      return fullDownloads.get();
    }
  }

  /**
   * Requests held back: {@link #arrived()} completes when the first comes in, {@link #arrived(int)} when the
   * n-th has, {@link #release()} answers them all and every later one at once.
   */
  public static final class Held {
    private final Map<Integer, Promise<Void>> arrivals = new HashMap<>();
    private final List<Runnable> waiting = new ArrayList<>();
    private int arrivedCount;
    private boolean released;

    public Future<Void> arrived() {
      return arrived(1);
    }

    public synchronized Future<Void> arrived(int n) {
      return arrivedCount >= n ? Future.succeededFuture() : arrivals.computeIfAbsent(n, k -> Promise.promise()).future();
    }

    public synchronized void release() {
      released = true;
      waiting.forEach(Runnable::run);
      waiting.clear();
    }

    private synchronized void hold(Runnable answer) {
      arrivedCount++;
      Promise<Void> awaited = arrivals.remove(arrivedCount);
      if (awaited != null) {
        awaited.complete();
      }
      if (released) {
        answer.run();
      } else {
        waiting.add(answer);
      }
    }
  }

  private final Vertx vertx;
  private final Map<String, Route> routes = new ConcurrentHashMap<>();
  /** Before every path, changed by {@link #reset}: a new test's files are at addresses no cache has seen. */
  private volatile String generation = "";
  private int resets;
  private HttpServer server;
  private final AtomicLong connections = new AtomicLong();
  private final AtomicLong resumedSessions = new AtomicLong();
  private volatile IllegalStateException sessionsUnknown;
  /** HTTP/2 requests served per connection, for {@link #goAwayEvery}. */
  private final Map<HttpConnection, AtomicLong> served = new ConcurrentHashMap<>();
  private volatile int goAwayEvery;

  private final String host;
  private final String scheme;

  private ParquetServer(Vertx vertx, String host, String scheme) {
    this.vertx = vertx;
    this.host = host;
    this.scheme = scheme;
  }

  public static ParquetServer start(Vertx vertx) {
    return start(vertx, "127.0.0.1");
  }

  /** On another loopback address (127.0.0.2, ...) when a test needs a second, forbidden host. */
  public static ParquetServer start(Vertx vertx, String loopbackHost) {
    if (!loopbackHost.startsWith("127.")) {
      throw new IllegalArgumentException("Test servers listen on loopback only");
    }
    return listen(vertx, loopbackHost, "http", new HttpServerOptions());
  }

  /**
   * An https origin on 127.0.0.1, as real ones are, with {@code identity}'s certificate (whose authority a client must
   * be told to trust); {@code http2}: whether it offers HTTP/2 through ALPN, as most CDNs do, besides HTTP/1.1.
   */
  public static ParquetServer startTls(Vertx vertx, BusCertificates.Identity identity, boolean http2) {
    HttpServerOptions options = new HttpServerOptions();
    // BoringSSL where the platform has it, as Quarry's client: the JDK's engine would make the test origin the bottleneck.
    if (OpenSSLEngineOptions.isAvailable()) {
      options.setSslEngineOptions(new OpenSSLEngineOptions());
    }
    return listen(vertx, "127.0.0.1", "https", options.setSsl(true).setUseAlpn(http2)
        .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(identity.key().toString())
            .setCertPath(identity.cert().toString())));
  }

  private static ParquetServer listen(Vertx vertx, String loopbackHost, String scheme, HttpServerOptions options) {
    ParquetServer files = new ParquetServer(vertx, loopbackHost, scheme);
    // Long enough for a dataset URL at its 8,192-character limit.
    files.server = vertx.createHttpServer(options.setMaxInitialLineLength(16_384))
        .connectionHandler(c -> {
          files.connections.incrementAndGet();
          keepWritable(c);
          files.noteSession(c);
          c.closeHandler(v -> files.served.remove(c));
        })
        .requestHandler(files::handle).listen(0, loopbackHost).await();
    return files;
  }

  /**
   * Vert.x 5.0's HTTP/2 server toggles a stream's writability flag at every notification rather than reading it, and
   * the notifications a connection's turning unwritable sends to all its streams re-enter one another, leaving a flag
   * inverted: that stream stops sending for good (vert.x#6359, in no 5.0 release), which clients of other servers
   * never meet. Half of the queries over an unthrottled origin stalled. A connection whose socket never turns
   * unwritable sends no such notifications; what it holds is bounded anyway by the flow-control window its client
   * grants (Quarry's: 16 MB a connection).
   */
  private static void keepWritable(HttpConnection connection) {
    if (connection instanceof Http2ServerConnection http2) {
      http2.channel().config().setWriteBufferWaterMark(new WriteBufferWaterMark(32 << 20, 64 << 20));
    }
  }

  public Route route(String path) {
    return routes.computeIfAbsent(generation + path, p -> new Route());
  }

  public String url(String path) {
    return scheme + "://" + host + ":" + server.actualPort() + generation + path;
  }

  /**
   * Forgets every route, as a server started afresh would, and serves what comes next under new addresses: for the
   * next test of a class that shares one node, whose caches must not answer for the files of a test before.
   */
  public synchronized void reset() {
    routes.clear();
    generation = "/test-" + ++resets;
  }

  /** Connections clients opened to this server, every path's together. */
  public long connections() {
    return connections.get();
  }

  /** Connections whose TLS handshake resumed an earlier session instead of making a new one. */
  public long resumedSessions() {
    if (sessionsUnknown != null) {
      throw sessionsUnknown;
    }
    return resumedSessions.get();
  }

  private void noteSession(HttpConnection connection) {
    if (!connection.isSsl()) {
      return;
    }
    try {
      if (TlsSessions.resumed(connection)) {
        resumedSessions.incrementAndGet();
      }
    } catch (IllegalStateException e) {
      sessionsUnknown = e;
    }
  }

  /**
   * Over HTTP/2, every {@code requests}-th request on a connection is its last, as nginx's {@code keepalive_requests}
   * (1,000) makes it: the server answers it and sends GOAWAY, and refuses the streams the client opened after it.
   */
  public ParquetServer goAwayEvery(int requests) {
    goAwayEvery = requests;
    return this;
  }

  public int port() {
    return server.actualPort();
  }

  public Future<Void> close() {
    return server.close();
  }

  private void handle(HttpServerRequest request) {
    Route route = routes.get(request.path());
    if (route == null) {
      request.response().setStatusCode(404).end();
      return;
    }
    route.requests.incrementAndGet();
    route.queries.add(request.query());
    if (request.version() == HttpVersion.HTTP_2 && refusedOverHttp2(route, request)) {
      return;
    }
    if (SUFFIX.matcher(String.valueOf(request.getHeader("Range"))).matches()) {
      route.tailRequests.incrementAndGet();
    }
    if (route.roundTripMs > 0) {
      request.pause();
      vertx.setTimer(route.roundTripMs, t -> {
        request.resume();
        serve(route, request);
      });
      return;
    }
    serve(route, request);
  }

  /**
   * Counts an HTTP/2 request, ends its connection after it when {@link #goAwayEvery} says so, and refuses it when its
   * route refuses streams (true: it is answered).
   */
  private boolean refusedOverHttp2(Route route, HttpServerRequest request) {
    route.http2Requests.incrementAndGet();
    long count = served.computeIfAbsent(request.connection(), c -> new AtomicLong()).incrementAndGet();
    if (goAwayEvery > 0 && count % goAwayEvery == 0) {
      request.connection().goAway(0, request.streamId());
    }
    if (route.streamsToRefuse.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      request.response().reset(Http2Error.REFUSED_STREAM.code());
      return true;
    }
    return false;
  }

  private void serve(Route route, HttpServerRequest request) {
    HttpServerResponse response = request.response();
    if (route.redirect != null) {
      response.setStatusCode(302).putHeader("Location", route.redirect).end();
      return;
    }
    if (route.status != 0) {
      response.setStatusCode(route.status).end(route.statusBody);
      return;
    }
    if (request.method() == HttpMethod.HEAD) {
      after(route.heldHead, () -> later(route.delayHeadMs, () -> head(route, response)));
    } else {
      get(route, request, response);
    }
  }

  private void head(Route route, HttpServerResponse response) {
    if (route.refuseHead) {
      response.setStatusCode(405).end();
      return;
    }
    long length = route.claimedLength >= 0 ? route.claimedLength : route.length();
    headers(route, response).putHeader("Content-Length", String.valueOf(length)).end();
  }

  private void get(Route route, HttpServerRequest request, HttpServerResponse response) {
    boolean conditional = request.getHeader("If-None-Match") != null || request.getHeader("If-Modified-Since") != null;
    boolean explicitRange = RANGE.matcher(String.valueOf(request.getHeader("Range"))).matches();
    boolean suffix = SUFFIX.matcher(String.valueOf(request.getHeader("Range"))).matches();
    after(conditional ? route.heldRevalidations : explicitRange ? route.heldRangeRequests : suffix ? route.heldTails : null,
        () -> answer(route, request, response));
  }

  /** Runs {@code answer} now, or on this context once {@code held} (when there is one) is released. */
  private void after(Held held, Runnable answer) {
    if (held == null) {
      answer.run();
      return;
    }
    Context context = vertx.getOrCreateContext();
    held.hold(() -> context.runOnContext(v -> answer.run()));
  }

  private void answer(Route route, HttpServerRequest request, HttpServerResponse response) {
    long length = route.length();
    String ifNoneMatch = request.getHeader("If-None-Match");
    if (!route.ignoreConditional && route.sendEtag && ifNoneMatch != null && ifNoneMatch.equals(route.etag)) {
      headers(route, response).setStatusCode(304).end();
      return;
    }
    String rangeHeader = request.getHeader("Range") == null ? "" : request.getHeader("Range");
    Matcher range = RANGE.matcher(rangeHeader);
    Matcher suffix = SUFFIX.matcher(rangeHeader);
    String ifRange = request.getHeader("If-Range");
    boolean sameVersion = ifRange == null || ifRange.equals(route.etag);
    if (range.matches()) {
      route.rangeRequests.incrementAndGet();
    }
    if (!route.ignoreRange && sameVersion && (range.matches() || suffix.matches())) {
      long from = range.matches() ? Long.parseLong(range.group(1)) : Math.max(0, length - Long.parseLong(suffix.group(1)));
      long asked = range.matches() ? Math.min(Long.parseLong(range.group(2)), length - 1) : length - 1;
      long to = route.shortRanges && range.matches() ? from + (asked - from) / 2 : asked;
      if (from >= length) {
        response.setStatusCode(416).putHeader("Content-Range", "bytes */" + length).end();
        return;
      }
      Part part = range.matches() ? Part.RANGE : Part.TAIL;
      long delay = part == Part.TAIL ? route.delayTailMs : from == 0 ? route.delayFirstBytesMs : route.delayOtherRangesMs;
      long shift = route.misplacedBy > 0 && from >= route.misplacedBy ? route.misplacedBy : 0;
      String contentRange = part == Part.TAIL && route.claimedLength >= 0
          ? (route.claimedLength - (to - from + 1)) + "-" + (route.claimedLength - 1) + "/" + route.claimedLength
          : (from - shift) + "-" + (to - shift) + "/" + length;
      later(delay, () -> body(route,
          headers(route, response).setStatusCode(206).putHeader("Content-Range", "bytes " + contentRange), from, to, part));
      return;
    }
    later(route.delayFullMs, () -> {
      route.fullDownloads.incrementAndGet();
      body(route, headers(route, response).setStatusCode(200), 0, length - 1, Part.FULL);
    });
  }

  /** Bytes {@code from}..{@code to} of the route's content, from memory or from its file, in chunks. */
  private void body(Route route, HttpServerResponse response, long from, long to, Part part) {
    if (route.chunked && part == Part.FULL) {
      response.setChunked(true);
    } else {
      response.putHeader("Content-Length", String.valueOf(to - from + 1));
    }
    if (route.zeroCopy && route.file != null && !(route.chunked && part == Part.FULL)) {
      response.sendFile(route.file.toString(), from, to - from + 1).onSuccess(sent -> {
        route.bodyBytes.addAndGet(to - from + 1);
        if (part == Part.RANGE) {
          route.rangeBytes.addAndGet(to - from + 1);
        }
      });
      return;
    }
    Sending sending = new Sending(route, response, part);
    if (route.file == null) {
      sending.from(offset -> Future.succeededFuture(Buffer.buffer(java.util.Arrays.copyOfRange(route.content,
          (int) (long) offset, (int) Math.min(to + 1, offset + CHUNK)))), from, from, to + 1);
      return;
    }
    vertx.fileSystem().open(route.file.toString(), new io.vertx.core.file.OpenOptions().setRead(true))
        .onFailure(e -> response.reset())
        .onSuccess(file -> {
          // HTTP/2 tells a stream's end to both handlers; closing twice would throw.
          AtomicBoolean open = new AtomicBoolean(true);
          Runnable close = () -> {
            if (open.getAndSet(false)) {
              file.close();
            }
          };
          response.closeHandler(v -> close.run());
          response.endHandler(v -> close.run());
          sending.from(offset -> file.read(Buffer.buffer(CHUNK), 0, (long) offset, (int) Math.min(CHUNK, to + 1 - offset)),
              from, from, to + 1);
        });
  }

  /** One response's body going out: held, dropped and throttled as its route says. */
  private final class Sending {
    private final Route route;
    private final HttpServerResponse response;
    private final Held hold;
    private final long holdAfter;
    private final long dropAfter;
    private final Part part;

    Sending(Route route, HttpServerResponse response, Part part) {
      this.part = part;
      this.route = route;
      this.response = response;
      this.hold = part == Part.RANGE ? route.heldRanges : null;
      this.holdAfter = route.holdRangesAfterBytes;
      this.dropAfter = part == Part.RANGE ? route.dropRangesAfterBytes : -1;
    }

    void from(java.util.function.Function<Long, Future<Buffer>> read, long start, long offset, long end) {
      sendFrom(read, start, offset, end, hold);
    }

    /** {@code held}: once {@code holdAfter} bytes are written, the rest waits for it (then null). */
    private void sendFrom(java.util.function.Function<Long, Future<Buffer>> read, long start, long offset, long end,
        Held held) {
      if (response.closed()) {
        return;
      }
      long sent = offset - start;
      if (held != null && sent >= holdAfter) {
        after(held, () -> sendFrom(read, start, offset, end, null));
        return;
      }
      if (dropAfter >= 0 && sent >= dropAfter) {
        response.reset();
        return;
      }
      if (offset >= end) {
        response.end();
        return;
      }
      read.apply(offset).onFailure(e -> response.reset()).onSuccess(chunk -> {
        route.bodyBytes.addAndGet(chunk.length());
        if (part == Part.RANGE) {
          route.rangeBytes.addAndGet(chunk.length());
        }
        response.write(chunk).onComplete(done -> {
          if (done.succeeded()) {
            later(pace(route, chunk.length()), () -> sendFrom(read, start, offset + chunk.length(), end, held));
          }
        });
      });
    }
  }

  private static HttpServerResponse headers(Route route, HttpServerResponse response) {
    if (route.sendEtag && route.etag != null) {
      response.putHeader("ETag", route.etag);
    }
    if (route.cacheControl != null) {
      response.putHeader("Cache-Control", route.cacheControl);
    }
    if (!route.ignoreRange) {
      response.putHeader("Accept-Ranges", "bytes");
    }
    return response.putHeader("Content-Type", "application/octet-stream");
  }

  /** Milliseconds to wait before sending more, so that the route's responses together keep to its rate. */
  private static long pace(Route route, long bytes) {
    if (route.bytesPerSecond <= 0) {
      return 0;
    }
    synchronized (route) {
      long now = System.nanoTime();
      long start = Math.max(now, route.nextFreeNanos);
      route.nextFreeNanos = start + bytes * 1_000_000_000L / route.bytesPerSecond;
      return (route.nextFreeNanos - now) / 1_000_000;
    }
  }

  private void later(long delayMs, Runnable action) {
    if (delayMs <= 0) {
      action.run();
    } else {
      vertx.setTimer(delayMs, id -> action.run());
    }
  }

  private static String sha(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
