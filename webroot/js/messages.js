// The centre panel: messages, the streaming answer, and each answer's SQL, tables and charts.
import { api } from './api.js';
import { renderMarkdown } from './markdown.js';
import { renderTable } from './table.js';
import { renderChart } from './chart.js';
import { EVENTS } from './events.js';
import { showProgress } from './progress.js';

const PHASES = { generating: 'Generating SQL…', executing: 'Executing query…', formatting: 'Formatting response…' };
/** What a stored answer's status says under it when the server gave no notice of its own. */
const STATUS_NOTES = {
  cancelled: 'Stopped.',
  error: 'This answer was interrupted by an error.',
  interrupted: 'This answer was interrupted when the server stopped.',
  streaming: 'Still being written…',
};

export class MessageView {
  constructor(container, conversationId) {
    this.container = container;
    this.conversationId = conversationId;
    this.active = null;
    this.results = new Map();
  }

  clear() {
    this.container.replaceChildren();
    this.active = null;
    this.results.clear();
  }

  result(id) {
    if (!this.results.has(id)) {
      this.results.set(id, api.get(`/api/results/${encodeURIComponent(id)}`));
    }
    return this.results.get(id);
  }

  async showConversation(messages) {
    this.clear();
    for (const message of messages) {
      if (message.role === 'user') {
        this.addUser(message.content);
      } else if (message.role === 'assistant') {
        await this.addStoredAnswer(message);
      }
    }
    this.scroll();
  }

  addUser(text) {
    const el = document.createElement('article');
    el.className = 'message user';
    el.textContent = text;
    this.container.append(el);
    this.scroll();
  }

  answerElement(id) {
    const el = document.createElement('article');
    el.className = 'message assistant';
    if (id) el.dataset.messageId = id;
    const content = document.createElement('div');
    content.className = 'content markdown';
    const artifacts = document.createElement('div');
    artifacts.className = 'artifacts';
    el.append(content, artifacts);
    this.container.append(el);
    return { el, content, artifacts };
  }

  async addStoredAnswer(message) {
    const { content, artifacts } = this.answerElement(message.id);
    content.replaceChildren(renderMarkdown(message.content));
    for (const id of message.result_ids || []) {
      const block = this.artifact(artifacts);
      try {
        const result = await this.result(id);
        this.resultBlock(block, result.sql, result);
      } catch (e) {
        block.textContent = `Result unavailable: ${e.message}`;
      }
    }
    for (const item of message.charts || []) {
      const block = this.artifact(artifacts);
      if (item.kind === 'table') {
        this.tableBlock(block, item);
      } else {
        this.chartBlock(block, item.result_id, item.spec);
      }
    }
    const note = message.notice || STATUS_NOTES[message.status];
    if (note) this.note(artifacts, note);
  }

  /** A placeholder for the answer that is about to stream; its id arrives with the 202 or the first token. */
  startAnswer() {
    const parts = this.answerElement(null);
    parts.content.classList.add('cursor');
    const phase = document.createElement('div');
    phase.className = 'phase';
    parts.el.insertBefore(phase, parts.artifacts);
    this.active = { ...parts, phase, text: '', id: null };
    this.scroll();
    return this.active;
  }

  claim(id) {
    if (this.active && !this.active.id) {
      this.active.id = id;
      this.active.el.dataset.messageId = id;
    }
  }

  onEvent(event) {
    const a = this.active;
    switch (event.type) {
      case EVENTS.CHAT_TOKEN:
        if (!a) return;
        this.claim(event.message_id);
        a.text += event.token;
        a.phase.textContent = '';
        this.renderText();
        break;
      case EVENTS.QUERY_STATUS:
        if (a) a.phase.textContent = PHASES[event.phase] || '';
        break;
      case EVENTS.QUERY_PROGRESS:
        if (a) showProgress(a.phase, event);
        break;
      case EVENTS.TOOL_CALL_START:
        if (a && event.tool === 'load_dataset') a.phase.textContent = 'Loading dataset…';
        break;
      case EVENTS.QUERY_RESULT:
        if (a) this.resultBlock(this.artifact(a.artifacts), event.sql, event);
        break;
      case EVENTS.QUERY_ERROR:
        if (a) this.errorBlock(this.artifact(a.artifacts), event.sql, event.error);
        break;
      case EVENTS.CHART:
        if (a) this.chartBlock(this.artifact(a.artifacts), event.result_id, event.spec);
        break;
      case EVENTS.TABLE:
        if (a) this.tableBlock(this.artifact(a.artifacts), event);
        break;
      case EVENTS.CHAT_COMPLETE:
        if (a && event.notice && (!a.id || a.id === event.message_id)) this.note(a.artifacts, event.notice);
        this.finish(event.message_id);
        break;
      case EVENTS.CHAT_ERROR:
        if (a) {
          this.claim(event.message_id);
          this.errorBox(a.artifacts, event.error, event.details);
        }
        this.finish(event.message_id);
        break;
      default:
    }
    this.scroll();
  }

  renderText() {
    const a = this.active;
    if (a.pending) return;
    a.pending = true;
    requestAnimationFrame(() => {
      a.pending = false;
      a.content.replaceChildren(renderMarkdown(a.text));
    });
  }

  finish(id) {
    const a = this.active;
    if (!a || (a.id && id && a.id !== id)) return;
    a.content.classList.remove('cursor');
    a.content.replaceChildren(renderMarkdown(a.text));
    a.phase.remove();
    this.active = null;
  }

  stopped() {
    if (this.active) {
      this.note(this.active.artifacts, 'Stopped.');
      this.finish(null);
    }
  }

  artifact(parent) {
    const block = document.createElement('section');
    block.className = 'artifact';
    parent.append(block);
    return block;
  }

  note(parent, text) {
    const p = document.createElement('p');
    p.className = 'status-note';
    p.textContent = text;
    parent.append(p);
  }

  /** The "Show SQL" panel (editable, re-runnable) above the result's table. */
  resultBlock(block, sql, result) {
    const details = document.createElement('details');
    details.className = 'sql-panel';
    const summary = document.createElement('summary');
    summary.textContent = 'Show SQL';
    const editor = document.createElement('textarea');
    editor.rows = Math.min(8, Math.max(2, (sql || '').split('\n').length));
    editor.value = sql || '';
    editor.spellcheck = false;
    editor.setAttribute('aria-label', 'SQL');
    const run = document.createElement('button');
    run.type = 'button';
    run.textContent = 'Run';
    const error = document.createElement('p');
    error.className = 'field-error';
    details.append(summary, editor, run, error);
    const tableHolder = document.createElement('div');
    block.append(details, tableHolder);
    renderTable(tableHolder, result);
    run.addEventListener('click', async () => {
      error.textContent = '';
      run.disabled = true;
      try {
        const fresh = await api.post(`/api/conversations/${this.conversationId()}/query`, { sql: editor.value });
        renderTable(tableHolder, fresh);
      } catch (e) {
        error.textContent = e.message;
      } finally {
        run.disabled = false;
      }
    });
  }

  errorBlock(block, sql, message) {
    const code = document.createElement('pre');
    code.textContent = sql;
    const error = document.createElement('p');
    error.className = 'field-error';
    error.textContent = message;
    block.append(code, error);
  }

  async chartBlock(block, resultId, spec) {
    const holder = document.createElement('div');
    block.append(holder);
    try {
      await renderChart(holder, spec, await this.result(resultId));
    } catch (e) {
      holder.textContent = `Chart unavailable: ${e.message}`;
    }
  }

  async tableBlock(block, { result_id: resultId, title, columns }) {
    if (title) {
      const h = document.createElement('h3');
      h.textContent = title;
      block.append(h);
    }
    const holder = document.createElement('div');
    block.append(holder);
    try {
      renderTable(holder, await this.result(resultId), columns);
    } catch (e) {
      holder.textContent = `Table unavailable: ${e.message}`;
    }
  }

  errorBox(parent, error, details) {
    const box = document.createElement('div');
    box.className = 'error-box';
    box.setAttribute('role', 'alert');
    const text = document.createElement('p');
    text.textContent = error;
    box.append(text);
    if (details) {
      const more = document.createElement('details');
      const summary = document.createElement('summary');
      summary.textContent = 'Details';
      const body = document.createElement('pre');
      body.textContent = details;
      more.append(summary, body);
      box.append(more);
    }
    parent.append(box);
  }

  /** A result of the user's own SQL, shown but not stored as a message. */
  showSqlResult(sql, result) {
    const { artifacts } = this.answerElement(null);
    this.resultBlock(this.artifact(artifacts), sql, result);
    this.scroll();
  }

  showSqlError(sql, message) {
    const { artifacts } = this.answerElement(null);
    this.errorBlock(this.artifact(artifacts), sql, message);
    this.scroll();
  }

  scroll() {
    this.container.scrollTop = this.container.scrollHeight;
  }
}
