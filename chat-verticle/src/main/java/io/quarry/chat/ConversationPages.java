package io.quarry.chat;

import io.vertx.ext.web.Router;

/**
 * {@code GET /c/<conversation id>}: every conversation has an address, so a reload, a bookmark or a shared link
 * opens the page and the page opens that conversation. Mounted after the Host check and the security headers,
 * which the page gets as any other response does; the page asks {@code /api/conversations/<id>} itself, so a
 * conversation that is not the user's is refused there (404), never here. An address of one segment that is not
 * shaped as storage makes ids (UUIDs), a mistyped or cut link, is a 404 that still serves the page: it says
 * "Conversation not found" with a way back, as it does for an unknown id, instead of a bare JSON error. Anything
 * deeper under {@code /c/} stays a plain 404.
 */
final class ConversationPages {

  static final String PATH = "/c/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  static final String MALFORMED = "/c/[^/]+";

  private ConversationPages() {
  }

  static void mount(Router router, Webroot webroot) {
    router.getWithRegex(PATH).handler(ctx -> webroot.page(ctx, "index.html", 200));
    router.getWithRegex(MALFORMED).handler(ctx -> webroot.page(ctx, "index.html", 404));
  }
}
