// The right panel: add a dataset by URL, its card while loading / ready / in error, the schema modal.
import { api } from './api.js';
import { elements } from './elements.js';

export function urlFormatError(text) {
  try {
    const url = new URL(text.trim());
    return ['http:', 'https:'].includes(url.protocol) && url.hostname ? null : 'Invalid URL format';
  } catch {
    return 'Invalid URL format';
  }
}

export class DatasetPanel {
  constructor(conversationId) {
    this.conversationId = conversationId;
    this.$ = elements(['dataset-list', 'dataset-url', 'dataset-url-error', 'schema-modal', 'dataset-form',
      'schema-rename', 'schema-refresh', 'schema-error', 'schema-title', 'schema-url', 'schema-name', 'schema-stats',
      'schema-columns']);
    this.list = this.$('dataset-list');
    this.input = this.$('dataset-url');
    this.error = this.$('dataset-url-error');
    this.modal = this.$('schema-modal');
    this.datasets = new Map();
    this.timers = new Map();
    this.pendingErrors = [];
    this.$('dataset-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.add(this.input.value);
    });
    this.$('schema-rename').addEventListener('click', () => this.rename());
    this.$('schema-refresh').addEventListener('click', () => this.refresh(this.modal.dataset.id, true));
  }

  base() {
    return `/api/conversations/${this.conversationId()}/datasets`;
  }

  show(datasets) {
    this.datasets.clear();
    this.timers.forEach(clearInterval);
    this.timers.clear();
    this.list.replaceChildren();
    datasets.forEach((d) => this.upsert(d));
  }

  count() {
    return this.datasets.size;
  }

  async add(url) {
    const problem = urlFormatError(url);
    this.error.textContent = problem || '';
    if (problem) {
      this.showLocalError(url, problem);
      return;
    }
    this.input.value = '';
    try {
      this.upsert(await api.post(this.base(), { url: url.trim() }));
    } catch (e) {
      this.error.textContent = e.message;
      if (!e.body?.error || e.status === 404) return;
      // The server keeps a failed dataset in error state (retry) unless nothing was stored; show that card.
      await this.reload();
      if (![...this.datasets.values()].some((d) => d.url === url.trim())) this.showLocalError(url, e.message);
    }
  }

  async reload() {
    const conversation = await api.get(`/api/conversations/${this.conversationId()}`);
    this.show(conversation.datasets);
  }

  /** An error card for a URL the server never took (a malformed URL, a full conversation). */
  showLocalError(url, message) {
    const card = this.card({ id: `local-${Date.now()}`, url, name: url, status: 'error', error_message: message }, true);
    this.list.append(card);
  }

  upsert(dataset) {
    this.datasets.set(dataset.id, dataset);
    const card = this.card(dataset, false);
    const existing = this.list.querySelector(`[data-id="${CSS.escape(dataset.id)}"]`);
    if (existing) existing.replaceWith(card); else this.list.append(card);
    if (!this.modal.open || this.modal.dataset.id !== dataset.id) return;
    this.fillModal(dataset);
  }

  removed(dataset) {
    this.datasets.delete(dataset.id);
    clearInterval(this.timers.get(dataset.id));
    this.list.querySelector(`[data-id="${CSS.escape(dataset.id)}"]`)?.remove();
  }

  card(d, local) {
    clearInterval(this.timers.get(d.id));
    const li = document.createElement('li');
    li.className = `dataset-card ${d.status}`;
    li.dataset.id = d.id;
    li.dataset.status = d.status;
    const title = document.createElement('div');
    title.className = 'title';
    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'open';
    if (d.status === 'ready') {
      name.textContent = `${d.name} [${Number(d.row_count).toLocaleString()} × ${d.column_count}]`;
      name.addEventListener('click', () => this.openModal(d.id));
    } else {
      name.textContent = d.status === 'loading' ? d.name : (local ? 'Not added' : d.name);
      name.disabled = d.status === 'loading';
    }
    title.append(name);
    const actions = document.createElement('span');
    if (d.status === 'error' && !local) actions.append(this.button('Retry', () => this.refresh(d.id, false)));
    actions.append(this.button(local ? 'Dismiss' : 'Remove', () => local ? li.remove() : this.remove(d)));
    title.append(actions);
    const url = document.createElement('div');
    url.className = 'url';
    url.textContent = d.url;
    li.append(title, url);
    if (d.status === 'loading') {
      const status = document.createElement('div');
      status.className = 'muted';
      const started = Date.now();
      const tick = () => { status.innerHTML = `<span class="spinner"></span> Loading… ${Math.floor((Date.now() - started) / 1000)} s`; };
      tick();
      this.timers.set(d.id, setInterval(tick, 1000));
      li.append(status);
    }
    if (d.status === 'error') {
      const message = document.createElement('div');
      message.className = 'message-text';
      message.textContent = d.error_message;
      li.append(message);
    }
    return li;
  }

  button(label, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', onClick);
    return b;
  }

  async remove(d) {
    if (!confirm(`Remove ${d.name}? Its SQL name stops working in this conversation.`)) return;
    try {
      await api.del(`${this.base()}/${d.id}`);
      this.removed(d);
    } catch (e) {
      this.error.textContent = e.message;
    }
  }

  async refresh(id, fromModal) {
    const target = fromModal ? this.$('schema-error') : this.error;
    target.textContent = '';
    try {
      this.upsert(await api.post(`${this.base()}/${id}/refresh`));
    } catch (e) {
      target.textContent = e.message;
      await this.reload();
    }
  }

  openModal(id) {
    this.modal.dataset.id = id;
    this.$('schema-error').textContent = '';
    this.fillModal(this.datasets.get(id));
    this.modal.showModal();
  }

  fillModal(d) {
    this.$('schema-title').textContent = d.name;
    this.$('schema-url').textContent = d.url;
    this.$('schema-name').value = d.name;
    this.$('schema-stats').textContent =
      `${Number(d.row_count).toLocaleString()} rows · ${d.column_count} columns` + (d.file_size ? ` · ${(d.file_size / 1024).toFixed(1)} KB` : '');
    const body = this.$('schema-columns');
    body.replaceChildren(...d.schema.map((c) => {
      const tr = document.createElement('tr');
      for (const text of [c.name, c.friendly_type, c.type]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }));
  }

  async rename() {
    const id = this.modal.dataset.id;
    const error = this.$('schema-error');
    error.textContent = '';
    try {
      this.upsert(await api.patch(`${this.base()}/${id}`, { name: this.$('schema-name').value.trim() }));
    } catch (e) {
      error.textContent = e.message;
    }
  }
}
