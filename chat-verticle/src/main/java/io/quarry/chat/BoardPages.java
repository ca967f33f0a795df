package io.quarry.chat;

import io.vertx.ext.web.Router;

/**
 * {@code GET /b/<board id>} and {@code /boards}: a board's page and the list of boards, as {@link ConversationPages}
 * serves a conversation's. The page asks {@code /api/boards/<id>} itself, so another user's board is refused there
 * (404, "Board not found"), never here; an id not shaped as storage makes them is a 404 that still serves the page.
 */
final class BoardPages {

  static final String PATH = "/b/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
  static final String MALFORMED = "/b/[^/]+";
  static final String PAGE = "board.html";

  private BoardPages() {
  }

  static void mount(Router router, Webroot webroot) {
    router.getWithRegex(PATH).handler(ctx -> webroot.page(ctx, PAGE, 200));
    router.getWithRegex(MALFORMED).handler(ctx -> webroot.page(ctx, PAGE, 404));
    // A regex route, as the pages are: the API document lists the API, not the pages.
    router.getWithRegex("/boards").handler(ctx -> webroot.page(ctx, PAGE, 200));
  }
}
