package io.quarry.chat;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;

/**
 * A file of the UI read from the class path into memory and served with an ETag of its bytes: a request that names the
 * tag gets 304 without the body, one with a single byte range gets those bytes (206). What the pages are and load
 * ({@link WebJars}, {@link Webroot}). A browser that accepts gzip gets a text file gzipped (the main page's bundle 168
 * KB as 45, Vega's scripts 828 KB as 278: on a link of 10 Mbit/s and 100 ms round trips a first page is ready in 0.91
 * of the time), under a tag of its own; the file is compressed once, off the event loop, when first asked for so. Only
 * these files, which hold no secret, are compressed: a response that mixed a secret with text an attacker chose could
 * leak the secret through its compressed length (BREACH). Each instance is used on one event loop.
 */
final class HeldFile {

  private static final String GZIP = "gzip";

  private final Buffer body;
  private final String etag;
  private final String gzipTag;
  private final FileType type;
  /** The body gzipped, once a request accepted it; null for a body gzip does not shrink. */
  private Future<Buffer> gzipped;

  private HeldFile(byte[] bytes, FileType type) {
    this.body = Buffer.buffer(bytes);
    this.etag = etag(bytes);
    this.gzipTag = etag.substring(0, etag.length() - 1) + "-gzip\"";
    this.type = type;
  }

  /**
   * {@code resource}'s bytes from the class path, or null when there is none or its name has no type of {@link
   * FileType}'s (a folder's name, for one: on a class path of folders a folder reads as the list of its files). Blocks.
   */
  static HeldFile read(String resource) {
    FileType type = FileType.of(resource);
    byte[] bytes = type == null ? null : bytes(resource);
    return bytes == null ? null : new HeldFile(bytes, type);
  }

  /** The whole file, as it is on the class path. */
  Buffer body() {
    return body;
  }

  String mediaType() {
    return type.mediaType();
  }

  /** A class-path resource's bytes, or null when there is none (blocks). */
  static byte[] bytes(String resource) {
    try (InputStream in = HeldFile.class.getClassLoader().getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether a request may have a file: GET or HEAD (others go on to the router's 405). */
  static boolean readable(RoutingContext ctx) {
    HttpMethod method = ctx.request().method();
    return method.equals(HttpMethod.GET) || method.equals(HttpMethod.HEAD);
  }

  /**
   * The file, or 304 when the request names its tag, or the one range of it the request asks for; {@code caching} is
   * its Cache-Control.
   */
  void send(RoutingContext ctx, String caching) {
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, caching).putHeader(HttpHeaders.ACCEPT_RANGES, "bytes");
    if (type.text()) {
      ctx.response().putHeader(HttpHeaders.VARY, "Accept-Encoding");
    }
    ByteSpan span = range(ctx);
    if (span != null && !etag.equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
      sendRange(ctx, span);
    } else if (!type.text() || !AcceptEncoding.gzip(ctx.request().getHeader(HttpHeaders.ACCEPT_ENCODING))) {
      answer(ctx, etag, body, null);
    } else {
      gzipped(ctx).onComplete(zipped -> {
        if (zipped.succeeded() && zipped.result() != null) {
          answer(ctx, gzipTag, zipped.result(), GZIP);
        } else {
          answer(ctx, etag, body, null);
        }
      });
    }
  }

  /**
   * The span a GET's {@code Range} asks for (RFC 9110, 14.2), when it names one range of this version of the file (an
   * {@code If-Range} naming another version asks for the whole file); null for the whole file.
   */
  private ByteSpan range(RoutingContext ctx) {
    String range = ctx.request().getHeader("Range");
    String ifRange = ctx.request().getHeader("If-Range");
    if (range == null || !ctx.request().method().equals(HttpMethod.GET) || ifRange != null && !ifRange.equals(etag)) {
      return null;
    }
    return ByteSpan.parse(range, body.length());
  }

  private void sendRange(RoutingContext ctx, ByteSpan span) {
    HttpServerResponse response = ctx.response().putHeader(HttpHeaders.ETAG, etag);
    if (span.unsatisfiable()) {
      response.setStatusCode(416).putHeader(HttpHeaders.CONTENT_RANGE, "bytes */" + body.length()).end();
      return;
    }
    response.setStatusCode(206).putHeader(HttpHeaders.CONTENT_TYPE, type.mediaType())
        .putHeader(HttpHeaders.CONTENT_RANGE, "bytes " + span.from() + "-" + span.last() + "/" + body.length())
        .end(body.slice((int) span.from(), (int) span.last() + 1));
  }

  private Future<Buffer> gzipped(RoutingContext ctx) {
    if (gzipped == null) {
      gzipped = ctx.vertx().executeBlocking(() -> gzip(body.getBytes()), false);
    }
    return gzipped;
  }

  /** {@code bytes} under {@code tag}, or 304 when the request names the tag. */
  private void answer(RoutingContext ctx, String tag, Buffer bytes, String encoding) {
    HttpServerResponse response = ctx.response().putHeader(HttpHeaders.ETAG, tag);
    if (tag.equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
      response.setStatusCode(304).end();
      return;
    }
    if (encoding != null) {
      response.putHeader(HttpHeaders.CONTENT_ENCODING, encoding);
    }
    end(ctx, response.putHeader(HttpHeaders.CONTENT_TYPE, type.mediaType()), bytes);
  }

  /** A HEAD's answer says how long the body would be (a reader learns a file's size so), and has none. */
  private static void end(RoutingContext ctx, HttpServerResponse response, Buffer bytes) {
    if (ctx.request().method().equals(HttpMethod.HEAD)) {
      response.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(bytes.length())).end();
    } else {
      response.end(bytes);
    }
  }

  /** Blocks; null when gzip would not make it smaller. */
  private static Buffer gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 3);
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(bytes);
    }
    return out.size() < bytes.length ? Buffer.buffer(out.toByteArray()) : null;
  }

  /**
   * A file's CRC-32 and length: the tag only has to tell one build's bytes from another's. SHA-256 of the libraries cost
   * every start ~50 ms of CPU in a JVM whose digest code is still cold; CRC-32 is intrinsic from the first call (1 ms).
   */
  private static String etag(byte[] bytes) {
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return "\"" + Long.toHexString(crc.getValue()) + "-" + Integer.toHexString(bytes.length) + "\"";
  }
}
