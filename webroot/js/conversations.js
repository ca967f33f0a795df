// The left panel: conversations, newest first; new, select, rename, delete.
import { api } from './api.js';
import { elements } from './elements.js';
import { askDialog } from './ask-dialog.js';

export class ConversationList {
  constructor({ onSelect, onDeleted }) {
    const $ = elements(['conversation-list', 'conversation-title']);
    this.list = $('conversation-list');
    this.title = $('conversation-title');
    this.onSelect = onSelect;
    this.onDeleted = onDeleted;
    this.items = [];
    this.activeId = null;
  }

  async load() {
    this.items = (await api.conversations()).conversations;
    this.render();
    return this.items;
  }

  async create() {
    const created = await api.createConversation();
    this.items.unshift(created);
    this.render();
    return created;
  }

  setActive(id) {
    this.activeId = id;
    this.render();
  }

  title(id) {
    return this.items.find((c) => c.id === id)?.title || '';
  }

  retitle(id, title) {
    const item = this.items.find((c) => c.id === id);
    if (item) {
      item.title = title;
      this.render();
    }
  }

  render() {
    this.list.replaceChildren(...this.items.map((c) => {
      const li = document.createElement('li');
      li.dataset.id = c.id;
      li.classList.toggle('active', c.id === this.activeId);
      const select = document.createElement('button');
      select.type = 'button';
      select.className = 'select';
      select.textContent = c.title;
      select.title = c.title;
      if (c.id === this.activeId) select.setAttribute('aria-current', 'true');
      select.addEventListener('click', () => this.onSelect(c.id));
      const rename = this.icon('✎', `Rename ${c.title}`, () => this.rename(c));
      const remove = this.icon('✕', `Delete ${c.title}`, () => this.remove(c));
      li.append(select, rename, remove);
      return li;
    }));
  }

  icon(symbol, label, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'icon';
    b.textContent = symbol;
    b.setAttribute('aria-label', label);
    b.title = label;
    b.addEventListener('click', onClick);
    return b;
  }

  /** Asks for the new title in the page's own dialog; a title the server refuses is said there. */
  async rename(c) {
    const renamed = await askDialog({
      title: 'Rename conversation',
      field: { label: 'Title', value: c.title },
      confirm: 'Rename',
      onConfirm: async (title) => {
        const done = await api.renameConversation(c.id, title);
        this.retitle(c.id, done.title);
        if (c.id === this.activeId) this.title.textContent = done.title;
      },
    });
    // The list was drawn anew: focus goes back to this conversation's Rename, as it would to the opener.
    if (renamed) this.list.querySelector(`li[data-id="${CSS.escape(c.id)}"] .icon`)?.focus();
  }

  async remove(c) {
    const index = this.items.findIndex((x) => x.id === c.id);
    const deleted = await askDialog({
      title: 'Delete conversation',
      message: `Delete "${c.title}" with its messages, datasets and results?`,
      confirm: 'Delete',
      onConfirm: () => api.deleteConversation(c.id),
    });
    if (!deleted) return;
    this.items = this.items.filter((x) => x.id !== c.id);
    this.render();
    // Its buttons are gone: focus goes to the conversation that took its place in the list.
    const next = this.list.querySelectorAll('.select')[Math.min(index, this.items.length - 1)];
    next?.focus();
    this.onDeleted(c.id);
  }
}
