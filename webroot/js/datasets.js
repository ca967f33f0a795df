// The right panel: add a dataset by URL, its card while loading / ready / in error, the schema modal. An add that
// failed keeps nothing on the server; its "Not added" card says why (the one place that does) until it is dismissed
// or retried, and its URL stays in the box to be corrected.
import { api, ApiError, Unreachable } from './api.js';
import { elements } from './elements.js';
import { describeNewVersion, describeRefresh, showChange } from './schema-change.js';
import { SchemaColumns, humanSize } from './schema-columns.js';

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
    this.$ = elements(['dataset-list', 'dataset-url', 'dataset-url-error', 'schema-modal', 'dataset-form',
      'schema-form', 'schema-close', 'schema-refresh', 'schema-error', 'schema-status', 'schema-title', 'schema-url',
      'schema-name', 'schema-stats']);
    this.list = this.$('dataset-list');
    this.input = this.$('dataset-url');
    this.error = this.$('dataset-url-error');
    this.modal = this.$('schema-modal');
    this.datasets = new Map();
    this.timers = new Map();
    this.$('dataset-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.add(this.input.value);
    });
    this.columns = new SchemaColumns();
    // Enter in the name, or Rename, renames; closing with a name typed and not saved asks first.
    this.$('schema-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.rename();
    });
    this.$('schema-close').addEventListener('click', () => this.closeModal());
    this.modal.addEventListener('cancel', (e) => {
      if (!this.mayClose()) e.preventDefault();
    });
    this.$('schema-refresh').addEventListener('click', () => this.refresh(this.modal.dataset.id, true));
  }

  /** The conversation's datasets; when it is the one already shown (a reload), its "Not added" cards stay. */
  show(datasets) {
    const same = this.shownFor === this.conversationId();
    const kept = same ? [...this.list.querySelectorAll('.dataset-card.not-added')] : [];
    this.shownFor = this.conversationId();
    this.datasets.clear();
    this.timers.forEach(clearInterval);
    this.timers.clear();
    this.list.replaceChildren();
    datasets.forEach((d) => this.upsert(d));
    kept.filter((li) => !this.notAddedCard(li.dataset.url) && !this.all().some((d) => d.url === li.dataset.url))
      .forEach((li) => this.list.append(li));
    this.onChange();
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
    try {
      this.upsert(await api.addDataset(this.conversationId(), url));
    } catch (e) {
      const message = e instanceof Unreachable ? 'Quarry cannot be reached; the dataset was not added' : e.message;
      const details = e instanceof ApiError ? e.details : undefined;
      // Nothing was kept: the URL goes back to the box (unless something else was typed meanwhile) and to a card.
      if (!this.input.value) this.input.value = url;
      this.dropLoading(url);
      const card = this.notAdded({ url, message, details, retry: true });
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
    if (existing) existing.replaceWith(card); else this.list.append(card);
    this.onChange();
    if (!this.modal.open || this.modal.dataset.id !== dataset.id) return;
    this.fillModal(dataset);
  }

  /** A dataset_error of an add: the server kept nothing, or keeps a row that costs nothing. */
  failedAdd(dataset) {
    this.removed(dataset);
    this.notAdded({ url: dataset.url, message: dataset.error_message, details: dataset.error_details, retry: true,
      storedId: dataset.id });
  }

  removed(dataset) {
    this.datasets.delete(dataset.id);
    clearInterval(this.timers.get(dataset.id));
    this.list.querySelector(`[data-id="${CSS.escape(dataset.id)}"]`)?.remove();
    this.onChange();
  }

  /** The loading card of an add whose answer was a failure (its dataset_error may not have come). */
  dropLoading(url) {
    this.all().filter((d) => d.url === url && d.status === 'loading' && d.row_count == null)
      .forEach((d) => this.removed(d));
  }

  dropNotAdded(url) {
    this.notAddedCard(url)?.remove();
  }

  notAddedCard(url) {
    return [...this.list.querySelectorAll('.dataset-card.not-added')].find((li) => li.dataset.url === url);
  }

  /** One card per URL: what failed last, with Retry (add it again) unless the URL itself is malformed. */
  notAdded({ url, message, details, retry, storedId }) {
    const li = this.cardShell({ status: 'error', url, error_message: message, error_details: details }, 'Not added');
    li.classList.add('not-added');
    li.dataset.url = url;
    const actions = li.querySelector('.actions');
    if (retry) actions.append(this.button('Retry', `Retry adding ${url}`, () => this.add(url)));
    actions.append(this.button('Dismiss', `Dismiss ${url}`, () => this.dismiss(li, storedId)));
    const existing = this.notAddedCard(url);
    if (existing) existing.replaceWith(li); else this.list.append(li);
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
    if (ready) name.addEventListener('click', () => this.openModal(d.id));
    const actions = li.querySelector('.actions');
    if (d.status === 'error') actions.append(this.button('Retry', `Retry ${d.name}`, () => this.refresh(d.id, false)));
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

  async remove(d) {
    if (!confirm(`Remove ${d.name}? Its SQL name stops working in this conversation.`)) return;
    try {
      await api.removeDataset(this.conversationId(), d.id);
      this.removed(d);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async refresh(id, fromModal) {
    const target = fromModal ? this.$('schema-error') : this.error;
    const status = this.$('schema-status');
    const before = this.datasets.get(id);
    target.textContent = '';
    if (fromModal) status.textContent = 'Refreshing…';
    try {
      const after = await api.refreshDataset(this.conversationId(), id);
      this.upsert(after);
      if (fromModal) status.textContent = describeRefresh(before, after);
    } catch (e) {
      target.textContent = e.message;
      if (fromModal) status.textContent = '';
      await this.reload();
    }
  }

  async reload() {
    const conversation = await api.conversation(this.conversationId());
    this.show(conversation.datasets);
  }

  openModal(id) {
    this.modal.dataset.id = id;
    this.$('schema-error').textContent = '';
    this.$('schema-status').textContent = '';
    this.columns.reset();
    this.fillModal(this.datasets.get(id), false);
    this.modal.showModal();
  }

  /** A name typed in the modal and not saved. */
  unsavedName() {
    const name = this.$('schema-name').value.trim();
    const shown = this.datasets.get(this.modal.dataset.id);
    return shown && name && name !== shown.name ? name : null;
  }

  /** Whether the modal may close: nothing unsaved, or the user agrees to lose it. */
  mayClose() {
    const name = this.unsavedName();
    return !name || confirm(`Close without renaming? The new name "${name}" was not saved.`);
  }

  closeModal() {
    if (this.mayClose()) this.modal.close();
    else this.$('schema-name').focus();
  }

  /** @param keepTyped keeps a name the user is typing (an update of the dataset arrived meanwhile) */
  fillModal(d, keepTyped = true) {
    const typed = keepTyped ? this.unsavedName() : null;
    this.$('schema-title').textContent = d.name;
    this.$('schema-url').textContent = d.url;
    this.$('schema-name').value = typed || d.name;
    this.$('schema-stats').textContent = `${Number(d.row_count).toLocaleString()} rows · `
      + `${Number(d.column_count).toLocaleString()} columns` + (d.file_size ? ` · ${humanSize(d.file_size)}` : '');
    this.columns.show(d.schema);
  }

  async rename() {
    const id = this.modal.dataset.id;
    const error = this.$('schema-error');
    error.textContent = '';
    try {
      this.upsert(await api.renameDataset(this.conversationId(), id, this.$('schema-name').value.trim()));
    } catch (e) {
      error.textContent = e.message;
    }
  }
}
