// The left panel: conversations, newest first; new, select, rename, delete.
import { api } from './api.js';
import { elements } from './elements.js';

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

  async rename(c) {
    const title = prompt('Rename conversation', c.title);
    if (title === null || !title.trim()) return;
    try {
      const renamed = await api.renameConversation(c.id, title.trim());
      this.retitle(c.id, renamed.title);
      if (c.id === this.activeId) this.title.textContent = renamed.title;
    } catch (e) {
      alert(e.message);
    }
  }

  async remove(c) {
    if (!confirm(`Delete "${c.title}" with its messages, datasets and results?`)) return;
    await api.deleteConversation(c.id);
    this.items = this.items.filter((x) => x.id !== c.id);
    this.render();
    this.onDeleted(c.id);
  }
}
