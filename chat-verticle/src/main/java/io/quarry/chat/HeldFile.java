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
 * A script or style sheet read from the class path into memory and served whole, with an ETag of its bytes: a request
 * that names the tag gets 304 without the body. What the pages load ({@link WebJars}, {@link AppAssets}). A browser
 * that accepts gzip gets it gzipped (the main page's bundle 168 KB as 45, Vega's scripts 828 KB as 278: on a link of
 * 10 Mbit/s and 100 ms round trips a first page is ready in 0.91 of the time), under a tag of its own; the file is
 * compressed once, off the event loop, when first asked for so. Only these files, which hold no secret, are
 * compressed: a response that mixed a secret with text an attacker chose could leak the secret through its compressed
 * length (BREACH). Each instance is used on one event loop.
 */
final class HeldFile {

  private static final String GZIP = "gzip";

  private final Buffer body;
  private final String etag;
  private final String gzipTag;
  private final String type;
  /** The body gzipped, once a request accepted it; null for a body gzip does not shrink. */
  private Future<Buffer> gzipped;

  private HeldFile(byte[] bytes, String type) {
    this.body = Buffer.buffer(bytes);
    this.etag = etag(bytes);
    this.gzipTag = etag.substring(0, etag.length() - 1) + "-gzip\"";
    this.type = type;
  }

  /** {@code resource}'s bytes from the class path, or null when there is none (blocks). */
  static HeldFile read(String resource) {
    byte[] bytes = bytes(resource);
    return bytes == null ? null : new HeldFile(bytes, type(resource));
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

  /** The file, or 304 when the request names its tag; {@code caching} is its Cache-Control. */
  void send(RoutingContext ctx, String caching) {
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, caching).putHeader(HttpHeaders.VARY, "Accept-Encoding");
    if (!AcceptEncoding.gzip(ctx.request().getHeader(HttpHeaders.ACCEPT_ENCODING))) {
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
    response.putHeader(HttpHeaders.CONTENT_TYPE, type).end(bytes);
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

  private static String type(String name) {
    return name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
  }
}
