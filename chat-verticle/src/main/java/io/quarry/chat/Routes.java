package io.quarry.chat;

import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import java.util.Set;
import java.util.stream.Collectors;

/** Route helpers shared by the API classes. */
final class Routes {

  private Routes() {
  }

  /**
   * After a path's method routes: any other method gets 405 with an {@code Allow} header. (The router's
   * own 405 never fires, because the catch-all {@code /api/*} handlers already matched the path.)
   */
  static void allowOnly(Router router, String path, HttpMethod... methods) {
    Set<HttpMethod> allowed = Set.of(methods);
    String allow = allowed.stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
    router.route(path).handler(ctx -> {
      if (allowed.contains(ctx.request().method())) {
        ctx.next();
        return;
      }
      ctx.response().putHeader("Allow", allow);
      HttpErrors.send(ctx, 405, "Method " + ctx.request().method() + " is not allowed on " + ctx.request().path()
          + "; use " + allow, null);
    });
  }
}
