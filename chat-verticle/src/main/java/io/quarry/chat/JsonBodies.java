package io.quarry.chat;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.util.Locale;

/**
 * Every body the API reads is JSON: a request that carries one under another {@code Content-Type} (or none)
 * gets 415 before the body is read, instead of a guess at what it meant.
 */
final class JsonBodies {

  static final String EXPECTED = "application/json";

  private JsonBodies() {
  }

  static void check(RoutingContext ctx) {
    HttpServerRequest request = ctx.request();
    if (carriesBody(request) && !json(request.getHeader(HttpHeaders.CONTENT_TYPE))) {
      HttpErrors.send(ctx, 415, "Request body must be JSON: send it with Content-Type: " + EXPECTED,
          request.getHeader(HttpHeaders.CONTENT_TYPE) == null ? "The request had no Content-Type"
              : "The request's Content-Type was " + request.getHeader(HttpHeaders.CONTENT_TYPE));
      return;
    }
    ctx.next();
  }

  /** A body waits unread until a later handler (after authentication) reads it or the answer drops it. */
  static void holdUnread(RoutingContext ctx) {
    if (carriesBody(ctx.request())) {
      ctx.request().pause();
    }
    ctx.next();
  }

  static boolean carriesBody(HttpServerRequest request) {
    String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
    return length != null ? !length.strip().equals("0") : request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null;
  }

  private static boolean json(String contentType) {
    return contentType != null
        && contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT).equals(EXPECTED);
  }
}
