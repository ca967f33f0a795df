// What is typed and not yet sent belongs to its conversation: each keeps its own for the browser session
// (sessionStorage), so switching shows the other one's, and Enter never sends one conversation's text to another.
const key = (id) => `quarry.draft.${id}`;

export const drafts = {
  get(id) {
    try {
      return (id && sessionStorage.getItem(key(id))) || '';
    } catch {
      return ''; // storage refused (a privacy mode): the box starts empty
    }
  },

  set(id, text) {
    if (!id) return;
    try {
      if (text) sessionStorage.setItem(key(id), text); else sessionStorage.removeItem(key(id));
    } catch {
      // storage refused or full: the draft lives only in the box while it is shown
    }
  },
};
