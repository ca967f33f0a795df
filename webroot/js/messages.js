// The centre panel: messages, the streaming answer, and each answer's SQL, tables and charts.
import { api } from './api.js';
import { renderMarkdown } from './markdown.js';
import { Artifacts } from './artifacts.js';
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
/** How close to the end the reader must be for the view to follow what arrives (px). */
const FOLLOW_SLACK = 40;
/** A finished answer is announced to screen readers up to this many characters. */
const ANNOUNCE_CHARS = 600;

export class MessageView {
  /**
   * @param announce (text) => void: tells screen readers about a finished answer (the list itself is not a live
   *                 region, or every token would be read out)
   */
  constructor(container, conversationId, { announce = () => {} } = {}) {
    this.container = container;
    this.conversationId = conversationId;
    this.announce = announce;
    this.active = null;
    this.results = new Map();
    this.follow = true;
    this.artifacts = new Artifacts({
      stored: (id) => this.result(id),
      query: (sql) => api.post(`/api/conversations/${this.conversationId()}/query`, { sql }),
      resized: () => this.scroll(),
    });
    // The view follows what streams in only while the reader is at the end: scrolling up to read stops it, and
    // scrolling back to the end starts it again. Only the reader scrolls up; following only ever scrolls down.
    this.lastTop = 0;
    container.addEventListener('scroll', () => {
      const top = container.scrollTop;
      if (this.atEnd()) this.follow = true;
      else if (top < this.lastTop) this.follow = false;
      this.lastTop = top;
    });
  }

  atEnd() {
    const c = this.container;
    return c.scrollHeight - c.scrollTop - c.clientHeight <= FOLLOW_SLACK;
  }

  clear() {
    this.container.replaceChildren();
    this.active = null;
    this.results.clear();
    this.follow = true;
  }

  hasMessages() {
    return this.container.querySelector('.message') !== null;
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
    this.scrollToEnd();
  }

  /** The reader's own question: the view goes to the end and follows the answer from there. */
  addUser(text) {
    const el = document.createElement('article');
    el.className = 'message user';
    el.textContent = text;
    this.container.append(el);
    this.scrollToEnd();
    return el;
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
      const block = this.artifacts.block(artifacts);
      try {
        const result = await this.result(id);
        this.artifacts.result(block, result.sql, result);
      } catch (e) {
        block.textContent = `Result unavailable: ${e.message}`;
      }
    }
    for (const item of message.charts || []) {
      const block = this.artifacts.block(artifacts);
      if (item.kind === 'table') {
        this.artifacts.table(block, item);
      } else {
        this.artifacts.chart(block, item.result_id, item.spec);
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

  /** Takes back a question that never reached the server, with the answer placeholder it had opened. */
  retract(question, answer) {
    question.remove();
    answer.el.remove();
    if (this.active === answer) this.active = null;
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
        if (a) this.artifacts.storedResult(this.artifacts.block(a.artifacts), event);
        break;
      case EVENTS.QUERY_ERROR:
        if (a) this.artifacts.error(this.artifacts.block(a.artifacts), event.sql, event.error);
        break;
      case EVENTS.CHART:
        if (a) this.artifacts.chart(this.artifacts.block(a.artifacts), event.result_id, event.spec);
        break;
      case EVENTS.TABLE:
        if (a) this.artifacts.table(this.artifacts.block(a.artifacts), event);
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
      this.scroll();
    });
  }

  finish(id) {
    const a = this.active;
    if (!a || (a.id && id && a.id !== id)) return;
    a.content.classList.remove('cursor');
    a.content.replaceChildren(renderMarkdown(a.text));
    a.phase.remove();
    this.active = null;
    this.scroll();
    const text = a.content.textContent.trim();
    if (text) this.announce(`Answer: ${text.length > ANNOUNCE_CHARS ? `${text.slice(0, ANNOUNCE_CHARS)}…` : text}`);
  }

  stopped() {
    if (this.active) {
      this.note(this.active.artifacts, 'Stopped.');
      this.finish(null);
    }
  }

  note(parent, text) {
    const p = document.createElement('p');
    p.className = 'status-note';
    p.textContent = text;
    parent.append(p);
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
    this.artifacts.result(this.artifacts.block(artifacts), sql, result);
    this.scrollToEnd();
  }

  showSqlError(sql, message) {
    const { artifacts } = this.answerElement(null);
    this.artifacts.error(this.artifacts.block(artifacts), sql, message);
    this.scrollToEnd();
  }

  /** Keeps the end in view while the reader is there. */
  scroll() {
    if (this.follow) this.container.scrollTop = this.container.scrollHeight;
  }

  scrollToEnd() {
    this.follow = true;
    this.scroll();
  }
}
