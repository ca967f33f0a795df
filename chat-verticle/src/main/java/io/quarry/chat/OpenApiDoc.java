package io.quarry.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /api/openapi.json}: the REST API's contract, an OpenAPI 3.1 document kept as a resource beside the code
 * that serves the routes, so that programs can read it without signing in (it says nothing a user owns). Tests hold
 * it to the router's routes and to real answers, so it cannot drift from what the server does.
 */
final class OpenApiDoc {

  static final String PATH = "/api/openapi.json";
  static final String RESOURCE = "quarry/openapi.json";

  private OpenApiDoc() {
  }

  /** Reads the document from the classpath: blocking, so once, at start. */
  static Buffer load() {
    try (InputStream in = OpenApiDoc.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("The REST API's contract " + RESOURCE + " is missing from the classpath");
      }
      return Buffer.buffer(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Before authentication, like health: the contract is public. */
  static void mount(Router router, Buffer document) {
    router.get(PATH).handler(ctx -> ctx.response()
        .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
        // A release may change it; a client should not keep an old copy.
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-cache")
        .end(document));
    Routes.allowOnly(router, PATH, HttpMethod.GET);
  }
}
