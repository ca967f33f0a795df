package io.quarry.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;

/**
 * A script or style sheet read from the class path into memory and served whole, with an ETag of its bytes: a request
 * that names the tag gets 304 without the body. What the pages load ({@link WebJars}, {@link AppAssets}).
 */
record HeldFile(Buffer body, String etag, String type) {

  /** {@code resource}'s bytes from the class path, or null when there is none (blocks). */
  static HeldFile read(String resource) {
    byte[] bytes = bytes(resource);
    return bytes == null ? null : new HeldFile(Buffer.buffer(bytes), etag(bytes), type(resource));
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
    ctx.response().putHeader(HttpHeaders.CACHE_CONTROL, caching).putHeader(HttpHeaders.ETAG, etag);
    if (etag.equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
      ctx.response().setStatusCode(304).end();
      return;
    }
    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, type).end(body);
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
