// Conversation search, above the list in the left panel: what is typed is looked for (after a pause in typing) in
// the titles and messages of the user's conversations; each match shows with a few words of where it matched.
// Esc, or emptying the box, shows the whole list again.
import { api } from './api.js';
import { elements } from './elements.js';

/** Milliseconds of no typing before a search is sent. */
const PAUSE_MS = 250;
/** What the server takes (GET /api/conversations?q=). */
const MAX_QUERY = 200;

const $ = elements(['conversation-list', 'conversation-search', 'search-results', 'search-status']);

export class ConversationSearch {
  /** @param onSelect called with a found conversation's id when it is chosen */
  constructor({ onSelect }) {
    this.onSelect = onSelect;
    this.box = $('conversation-search');
    this.timer = null;
    this.asked = 0;
    this.box.addEventListener('input', () => this.typed());
    this.box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.box.value) {
        // Esc empties the box (and goes no further: it does not also close a drawer or stop an answer).
        e.preventDefault();
        e.stopPropagation();
        this.box.value = '';
        this.typed();
      }
    });
  }

  typed() {
    clearTimeout(this.timer);
    const query = this.box.value.trim().slice(0, MAX_QUERY);
    if (!query) {
      this.restore();
      return;
    }
    this.timer = setTimeout(() => this.search(query), PAUSE_MS);
  }

  /** The whole list again. */
  restore() {
    this.asked += 1; // an answer still on its way is not shown
    $('search-results').hidden = true;
    $('search-results').replaceChildren();
    $('search-status').textContent = '';
    $('conversation-list').hidden = false;
  }

  async search(query) {
    const asked = ++this.asked;
    let found;
    try {
      found = (await api.searchConversations(query)).conversations;
    } catch (e) {
      if (asked === this.asked) $('search-status').textContent = `Search failed: ${e.message}`;
      return;
    }
    if (asked !== this.asked) return; // something else was typed since
    $('conversation-list').hidden = true;
    $('search-results').hidden = found.length === 0;
    $('search-results').replaceChildren(...found.map((c) => this.item(c, query)));
    $('search-status').textContent = found.length === 0 ? `No conversation mentions “${query}”.`
      : `${found.length} ${found.length === 1 ? 'conversation mentions' : 'conversations mention'} “${query}”.`;
  }

  item(c, query) {
    const li = document.createElement('li');
    li.dataset.id = c.id;
    const select = document.createElement('button');
    select.type = 'button';
    select.className = 'select';
    const title = document.createElement('span');
    title.className = 'found-title';
    title.append(...marked(c.title, query));
    select.append(title);
    if (c.match) {
      const match = document.createElement('span');
      match.className = 'found-match';
      match.append(...marked(c.match, query));
      select.append(match);
    }
    select.addEventListener('click', () => this.onSelect(c.id));
    li.append(select);
    return li;
  }
}

/** The text as text nodes, with where it holds the query (ignoring case) in <mark>. */
function marked(text, query) {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return [document.createTextNode(text)]; // case folding moved the letters
  const nodes = [];
  const wanted = query.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(wanted); at >= 0 && wanted; at = lower.indexOf(wanted, from)) {
    if (at > from) nodes.push(document.createTextNode(text.slice(from, at)));
    const mark = document.createElement('mark');
    mark.textContent = text.slice(at, at + wanted.length);
    nodes.push(mark);
    from = at + wanted.length;
  }
  if (from < text.length) nodes.push(document.createTextNode(text.slice(from)));
  return nodes;
}
