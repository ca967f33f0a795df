// The right panel: add a dataset by URL, its card while loading / ready / in error, its schema modal
// (schema-modal.js). An add that failed keeps nothing on the server; its "Not added" card says why (the one place that
// does) until it is dismissed or retried, and its URL stays in the box to be corrected. Both belong to the
// conversation it was added to: while another is shown they are kept aside, and shown when it is again.
import { api, ApiError, Unreachable } from './api.js';
import { askDialog } from './ask-dialog.js';
import { elements } from './elements.js';
import { replaceKeepingFocus } from './keep-focus.js';
import { describeNewVersion, showChange } from './schema-change.js';
import { SchemaModal } from './schema-modal.js';
import { DatasetUploads } from './uploads.js';
import { returnUrl } from './url-drafts.js';
import { shownUrl } from './url-secrets.js';

export const INVALID_URL = 'Invalid URL format';

export function urlFormatError(text) {
  try {
    const url = new URL(text.trim());
    return ['http:', 'https:'].includes(url.protocol) && url.hostname ? null : INVALID_URL;
  } catch {
    return INVALID_URL;
  }
}

/** A stored dataset that never loaded: a failed add (left behind only when a server stopped while adding it). */
function neverLoaded(d) {
  return d.status === 'error' && (d.row_count === null || d.row_count === undefined);
}

export class DatasetPanel {
  /** @param onChange () => void, whenever the conversation's datasets change */
  constructor(conversationId, { onChange = () => {} } = {}) {
    this.conversationId = conversationId;
    // Results that read an earlier version of a dataset hear of every change too (data-changed.js).
    this.onChange = () => {
      onChange();
      document.dispatchEvent(new CustomEvent('quarry:datasets', { detail: this.all() }));
    };
    this.$ = elements(['dataset-list', 'dataset-url', 'dataset-url-error', 'dataset-form']);
    this.list = this.$('dataset-list');
    this.input = this.$('dataset-url');
    this.error = this.$('dataset-url-error');
    this.datasets = new Map();
    this.timers = new Map();
    /** Conversation id → its "Not added" cards, while another conversation is shown. */
    this.parked = new Map();
    this.$('dataset-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.add(this.input.value);
    });
    this.schema = new SchemaModal(this);
    this.uploads = new DatasetUploads(this);
  }

  /** The conversation's datasets, and its "Not added" cards (those of another shown are kept aside for it). */
  show(datasets) {
    const now = this.conversationId();
    const cards = [...this.list.querySelectorAll('.dataset-card.not-added')];
    const same = this.shownFor === now;
    if (!same) this.park(this.shownFor, cards);
    const kept = same ? cards : this.unpark(now);
    this.shownFor = now;
    this.datasets.clear();
    this.timers.forEach(clearInterval);
    this.timers.clear();
    this.list.replaceChildren();
    datasets.forEach((d) => this.upsert(d));
    kept.filter((li) => !this.notAddedCard(li.dataset.url) && !this.all().some((d) => d.url === li.dataset.url))
      .forEach((li) => this.list.append(li));
    if (!same) this.markInput(this.notAddedCard(this.input.value.trim()));
    this.onChange();
  }

  /** Keeps a conversation's "Not added" cards aside, the latest one per URL. */
  park(conversation, cards) {
    if (!conversation || !cards.length) return;
    const all = [...(this.parked.get(conversation) || []), ...cards];
    this.parked.set(conversation, [...new Map(all.map((li) => [li.dataset.url, li])).values()]);
  }

  unpark(conversation) {
    const cards = this.parked.get(conversation) || [];
    this.parked.delete(conversation);
    return cards;
  }

  /** Whether the panel shows this conversation (not so while another is being opened). */
  showing(conversation) {
    return this.shownFor === conversation && this.conversationId() === conversation;
  }

  /** The datasets the server keeps for this conversation, failed adds left aside. */
  all() {
    return [...this.datasets.values()];
  }

  async add(text) {
    const url = text.trim();
    const problem = urlFormatError(text);
    this.error.textContent = '';
    this.markInput(null);
    if (problem) {
      // The box keeps what was typed, to be corrected; the card says what is wrong with it.
      this.markInput(this.notAdded({ url: text, message: problem, retry: false }));
      return;
    }
    this.input.value = '';
    this.dropNotAdded(url);
    // The answer is the conversation's the URL was added to, which may no longer be the one shown when it comes.
    const conversation = this.conversationId();
    try {
      const added = await api.addDataset(conversation, url);
      if (this.showing(conversation)) this.upsert(added);
    } catch (e) {
      const message = e instanceof Unreachable ? 'Quarry cannot be reached; the dataset was not added' : e.message;
      const failure = { url, message, details: e instanceof ApiError ? e.details : undefined, retry: true };
      // Nothing was kept: the URL goes back to its conversation's box (unless something else was typed there
      // meanwhile) and to a card, shown now or when that conversation is.
      if (this.conversationId() !== conversation) returnUrl(conversation, url);
      else if (!this.input.value) this.input.value = url;
      if (!this.showing(conversation)) {
        this.park(conversation, [this.notAddedCardOf(failure)]);
        return;
      }
      this.dropLoading(url);
      const card = this.notAdded(failure);
      if (this.input.value === url) this.markInput(card);
    }
  }

  /** The box is marked invalid, described by the card that says why, while it holds a URL that was not added. */
  markInput(card) {
    const message = card?.querySelector('.message-text');
    if (message) {
      const said = [message, card.querySelector('.message-details')].filter(Boolean);
      said.forEach((el) => { el.id = `not-added-${Math.random().toString(36).slice(2)}`; });
      this.input.setAttribute('aria-invalid', 'true');
      this.input.setAttribute('aria-describedby', said.map((el) => el.id).join(' '));
    } else {
      this.input.removeAttribute('aria-invalid');
      this.input.removeAttribute('aria-describedby');
    }
  }

  upsert(dataset) {
    if (neverLoaded(dataset)) {
      this.failedAdd(dataset);
      return;
    }
    this.dropNotAdded(dataset.url);
    const change = describeNewVersion(this.datasets.get(dataset.id), dataset);
    this.datasets.set(dataset.id, dataset);
    const card = this.card(dataset);
    const existing = this.list.querySelector(`[data-id="${CSS.escape(dataset.id)}"]`);
    // The same version heard twice (the check's answer and its event) keeps saying what changed.
    const said = existing?.querySelector('.dataset-change');
    if (change) showChange(card, change); else if (said && dataset.status === 'ready') card.append(said);
    if (existing) replaceKeepingFocus(existing, card); else this.list.append(card);
    this.onChange();
    this.schema.update(dataset);
  }

  /** A dataset_error of an add: the server kept nothing, or keeps a row that costs nothing. */
  failedAdd(dataset) {
    this.removed(dataset);
    // A signed link comes back redacted: adding that again cannot work, a fresh link pasted can.
    this.notAdded({ url: dataset.url, message: dataset.error_message, details: dataset.error_details,
      retry: !/[=:]\[redacted\]/.test(dataset.url), storedId: dataset.id });
  }

  removed(dataset) {
    this.datasets.delete(dataset.id);
    clearInterval(this.timers.get(dataset.id));
    this.list.querySelector(`[data-id="${CSS.escape(dataset.id)}"]`)?.remove();
    this.onChange();
  }

  /** The loading card of an add whose answer was a failure (its dataset_error may not have come). */
  dropLoading(url) {
    this.all().filter((d) => d.url === shownUrl(url) && d.status === 'loading' && d.row_count == null)
      .forEach((d) => this.removed(d));
  }

  dropNotAdded(url) {
    this.notAddedCard(url)?.remove();
  }

  notAddedCard(url) {
    return [...this.list.querySelectorAll('.dataset-card.not-added')].find((li) => li.dataset.url === shownUrl(url));
  }

  /** One card per URL: what failed last, with Retry (add it again) unless the URL itself is malformed. */
  notAdded(failure) {
    const li = this.notAddedCardOf(failure);
    const existing = this.notAddedCard(failure.url);
    if (existing) replaceKeepingFocus(existing, li); else this.list.append(li);
    return li;
  }

  notAddedCardOf({ url, message, details, retry, storedId }) {
    // A signed link's secrets stay in the box and in Retry's memory; the card shows them as the server does.
    const shown = shownUrl(url);
    const li = this.cardShell({ status: 'error', url: shown, error_message: message, error_details: details },
      'Not added');
    li.classList.add('not-added');
    li.dataset.url = shown;
    const actions = li.querySelector('.actions');
    if (retry) actions.append(this.button('Retry', `Retry adding ${shown}`, () => this.add(url)));
    actions.append(this.button('Dismiss', `Dismiss ${shown}`, () => this.dismiss(li, storedId)));
    return li;
  }

  async dismiss(card, storedId) {
    const describedBy = (this.input.getAttribute('aria-describedby') || 'none').split(' ')[0];
    if (card.querySelector(`#${CSS.escape(describedBy)}`)) this.markInput(null);
    card.remove();
    if (!storedId) return;
    try {
      await api.removeDataset(this.conversationId(), storedId);
    } catch (e) {
      if (e.status !== 404) this.error.textContent = e.message;
    }
  }

  /** Title (name, actions), URL, and the error message when in error, with which failure it was when known. */
  cardShell(d, title) {
    const li = document.createElement('li');
    li.className = `dataset-card ${d.status}`;
    li.dataset.status = d.status;
    const head = document.createElement('div');
    head.className = 'title';
    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'open';
    name.textContent = title;
    name.disabled = true;
    const actions = document.createElement('span');
    actions.className = 'actions';
    head.append(name, actions);
    const url = document.createElement('div');
    url.className = 'url';
    url.textContent = d.url;
    li.append(head, url);
    if (d.status === 'error') {
      const message = document.createElement('div');
      message.className = 'message-text';
      message.textContent = d.error_message;
      li.append(message);
      // The seed's message names the step; its details say which failure ("The server answered HTTP 404 Not Found").
      if (d.error_details) {
        const details = document.createElement('div');
        details.className = 'message-details muted';
        details.textContent = d.error_details;
        li.append(details);
      }
    }
    return li;
  }

  card(d) {
    clearInterval(this.timers.get(d.id));
    const ready = d.status === 'ready';
    const li = this.cardShell(d, ready ? `${d.name} [${Number(d.row_count).toLocaleString()} × ${d.column_count}]` : d.name);
    li.dataset.id = d.id;
    const name = li.querySelector('.open');
    name.disabled = !ready;
    if (ready) name.addEventListener('click', () => this.schema.open(d.id));
    const actions = li.querySelector('.actions');
    if (d.status === 'error') actions.append(this.button('Retry', `Retry ${d.name}`, () => this.refresh(d.id)));
    actions.append(this.button('Remove', `Remove ${d.name}`, () => this.remove(d)));
    if (d.status === 'loading') li.append(this.loadingStatus(d.id));
    return li;
  }

  loadingStatus(id) {
    const status = document.createElement('div');
    status.className = 'muted';
    const started = Date.now();
    const tick = () => { status.innerHTML = `<span class="spinner"></span> Loading… ${Math.floor((Date.now() - started) / 1000)} s`; };
    tick();
    this.timers.set(id, setInterval(tick, 1000));
    return status;
  }

  /** A button whose accessible name says which dataset it acts on. */
  button(label, name, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.setAttribute('aria-label', name);
    b.addEventListener('click', onClick);
    return b;
  }

  /** Asks in the page's own dialog; a removal the server refuses is said there. */
  async remove(d) {
    const removed = await askDialog({
      title: 'Remove dataset',
      message: `Remove ${d.name}? Its SQL name stops working in this conversation.`,
      confirm: 'Remove',
      onConfirm: () => api.removeDataset(this.conversationId(), d.id),
    });
    if (!removed) return;
    this.removed(d);
    // Its card and buttons are gone: focus goes to the URL box, where the next one is added.
    this.input.focus();
  }

  /** A card's Retry: reads the dataset's file again. */
  async refresh(id) {
    this.error.textContent = '';
    try {
      await this.refreshed(id);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  /** Reads a dataset's file again: the dataset after, or what failed once what the server keeps is shown again. */
  async refreshed(id) {
    try {
      const after = await api.refreshDataset(this.conversationId(), id);
      this.upsert(after);
      return after;
    } catch (e) {
      await this.reload();
      throw e;
    }
  }

  async reload() {
    const conversation = await api.conversation(this.conversationId());
    this.show(conversation.datasets);
  }
}
