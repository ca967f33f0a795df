// Every conversation has an address, /c/<id>: the bar names the one open, so a reload or a bookmark opens it again,
// and Back and Forward move between the conversations visited. A result is linked as /c/<id>#result-<result id>.
const CONVERSATION = /^\/c\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;
const RESULT = /^#result-(.+)$/;

export const address = {
  /** The conversation the address names, or null (at /). */
  conversationId() {
    return CONVERSATION.exec(location.pathname)?.[1] || null;
  },

  /** Whether the address is under /c/ yet names no conversation's id (a mistyped or cut link): "not found". */
  malformed() {
    return /^\/c\/[^/]+$/.test(location.pathname) && !this.conversationId();
  },

  /** The result the address's fragment names, or null. */
  resultId() {
    const found = RESULT.exec(location.hash);
    return found ? decodeURIComponent(found[1]) : null;
  },

  /**
   * Puts a conversation's address in the bar. @param push true when the user chose it (Back returns to the one
   * before); false when the address only gets its name (the page opened at /, or the one shown was deleted).
   */
  show(id, { push }) {
    const path = `/c/${id}`;
    if (location.pathname === path) return;
    if (push) history.pushState(null, '', path); else history.replaceState(null, '', path);
  },

  /** Back, Forward, or a new fragment typed: @param handler (conversationId, resultId) */
  onMove(handler) {
    window.addEventListener('popstate', () => handler(this.conversationId(), this.resultId()));
    window.addEventListener('hashchange', () => handler(this.conversationId(), this.resultId()));
  },
};

/** The element of a shown result, as the page names it for its link. */
export function resultElementId(resultId) {
  return `result-${resultId}`;
}

/** Scrolls to the linked result and marks it; false when it is not among those shown. */
export function revealResult(resultId) {
  const el = resultId && document.getElementById(resultElementId(resultId));
  if (!el) return false;
  document.querySelectorAll('.artifact.linked').forEach((other) => other.classList.remove('linked'));
  el.classList.add('linked');
  el.scrollIntoView({ block: 'start' });
  return true;
}
