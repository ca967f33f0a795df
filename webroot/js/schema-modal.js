// A dataset's schema modal: its name (Enter renames), URL, size, columns and Refresh Schema. A name typed and not
// saved is not lost without a word: closing (Close or Esc) asks first, in the page's own dialog. Closed, the modal
// gives focus back to what opened it: the dataset's name in its card, drawn anew when it was renamed.
import { api } from './api.js';
import { askDialog } from './ask-dialog.js';
import { elements } from './elements.js';
import { describeRefresh } from './schema-change.js';
import { SchemaColumns, humanSize } from './schema-columns.js';
import { SchemaProfile } from './schema-profile.js';

/** A dataset's format as its user names it. */
const FORMATS = { parquet: 'Parquet', csv: 'CSV', json: 'JSON' };

const $ = elements(['schema-modal', 'schema-form', 'schema-close', 'schema-refresh', 'schema-error', 'schema-status',
  'schema-title', 'schema-url', 'schema-name', 'schema-stats']);

export class SchemaModal {
  /**
   * @param panel the datasets panel (datasets.js): its datasets, list and URL box, conversationId(), upsert(dataset),
   *              and refreshed(id), the dataset read again
   */
  constructor(panel) {
    this.panel = panel;
    this.modal = $('schema-modal');
    this.profile = new SchemaProfile();
    this.columns = new SchemaColumns(this.profile);
    $('schema-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.rename();
    });
    $('schema-close').addEventListener('click', () => this.close());
    // Esc with a name unsaved asks, instead of the browser's close request (which it may not let be cancelled twice).
    this.modal.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape' || !this.unsavedName()) return;
      e.preventDefault();
      this.close();
    });
    this.modal.addEventListener('cancel', (e) => {
      if (!this.unsavedName()) return;
      e.preventDefault();
      this.close();
    });
    this.modal.addEventListener('close', () => this.giveFocusBack());
    $('schema-refresh').addEventListener('click', () => this.refresh());
  }

  id() {
    return this.modal.dataset.id;
  }

  open(id) {
    this.opener = document.activeElement;
    this.modal.dataset.id = id;
    $('schema-error').textContent = '';
    $('schema-status').textContent = '';
    this.columns.reset();
    const dataset = this.panel.datasets.get(id);
    this.fill(dataset, false);
    this.modal.showModal();
    if (dataset.status === 'ready') this.profile.load(this.panel.conversationId(), dataset, () => this.columns.draw());
  }

  /** A dataset changed: the modal shows it anew when it is the one open. */
  update(dataset) {
    if (this.modal.open && this.id() === dataset.id) this.fill(dataset);
  }

  /** A name typed in the modal and not saved. */
  unsavedName() {
    const name = $('schema-name').value.trim();
    const shown = this.panel.datasets.get(this.id());
    return shown && name && name !== shown.name ? name : null;
  }

  /** Closes the modal when nothing typed is unsaved, or when the user agrees, in the page's own dialog, to lose it. */
  async close() {
    const name = this.unsavedName();
    if (name && !await askDialog({ title: 'Close without renaming?', confirm: 'Close',
      message: `The new name "${name}" was not saved.` })) return;
    this.modal.close();
  }

  giveFocusBack() {
    const card = this.panel.list.querySelector(`[data-id="${CSS.escape(this.id() || '')}"] .open`);
    (this.opener?.isConnected ? this.opener : card || this.panel.input).focus();
  }

  /** @param keepTyped keeps a name the user is typing (an update of the dataset arrived meanwhile) */
  fill(d, keepTyped = true) {
    const typed = keepTyped ? this.unsavedName() : null;
    $('schema-title').textContent = d.name;
    $('schema-url').textContent = d.url;
    $('schema-name').value = typed || d.name;
    $('schema-stats').textContent = `${FORMATS[d.format] || 'Parquet'} · ${Number(d.row_count).toLocaleString()} rows · `
      + `${Number(d.column_count).toLocaleString()} columns` + (d.file_size ? ` · ${humanSize(d.file_size)}` : '');
    this.columns.show(d.schema);
  }

  async rename() {
    $('schema-error').textContent = '';
    try {
      const renamed = await api.renameDataset(this.panel.conversationId(), this.id(), $('schema-name').value.trim());
      this.panel.upsert(renamed);
    } catch (e) {
      $('schema-error').textContent = e.message;
    }
  }

  async refresh() {
    const id = this.id();
    const before = this.panel.datasets.get(id);
    $('schema-error').textContent = '';
    $('schema-status').textContent = 'Refreshing…';
    try {
      $('schema-status').textContent = describeRefresh(before, await this.panel.refreshed(id));
    } catch (e) {
      $('schema-error').textContent = e.message;
      $('schema-status').textContent = '';
    }
  }
}
