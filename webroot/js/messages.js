// The centre panel: messages, the streaming answer, each answer's SQL, tables and charts, and the user's own runs
// (an answer's SQL edited and run again, under its answer; the SQL runner's, in time order). An answer that failed
// says why, with Retry, live and after a reload alike.
import { api } from './api.js';
import { renderMarkdown } from './markdown.js';
import { Artifacts } from './artifacts.js';
import { EVENTS } from './events.js';
import { showProgress } from './progress.js';
import { isRun, timeline } from './timeline.js';
import { finishAnswer } from './answer-finish.js';
import { followUpChips, followUps } from './follow-ups.js';

const PHASES = { generating: 'Generating SQL…', executing: 'Executing query…', formatting: 'Formatting response…' };
/** What a stored answer's status says under it when the server gave no notice of its own. */
const STATUS_NOTES = {
  cancelled: 'Stopped.',
  interrupted: 'This answer was interrupted when the server stopped.',
  streaming: 'Still being written…',
};
/** What a stored answer that failed says when it was stored without its error's text. */
const ERROR_NOTE = 'This answer was interrupted by an error.';
/** The notice of an answer cut off at the model's output limit: such an answer, the last one, can be continued. */
const CUT_OFF = 'The answer was cut off at the model\'s output limit.';
/** How close to the end the reader must be for the view to follow what arrives (px). */
const FOLLOW_SLACK = 40;
/** A finished answer is announced to screen readers up to this many characters. */
const ANNOUNCE_CHARS = 600;

export class MessageView {
  /**
   * @param announce (text) => void: tells screen readers about a finished answer (the list itself is not a live
   *                 region, or every token would be read out)
   * @param retry    (question) => void: asks a question (again, for an answer that failed; a follow-up's)
   * @param resume   (messageId) => void: continues an answer cut off at the model's output limit
   */
  constructor(container, conversationId, { announce = () => {}, retry = () => {}, resume = () => {} } = {}) {
    this.container = container;
    this.conversationId = conversationId;
    this.announce = announce;
    this.retry = retry;
    this.resume = resume;
    this.active = null;
    this.results = new Map();
    this.follow = true;
    /** The conversation's datasets as the panel last had them, for follow-up questions. */
    this.datasets = [];
    /** Whether the model writes the follow-up questions (the server's chat.followUps), and what it wrote, by answer. */
    this.followUpsByModel = false;
    this.written = new Map();
    document.addEventListener('quarry:datasets', (e) => {
      this.datasets = e.detail || [];
      // The panel's datasets may come after a reloaded conversation's answers: its suggestions are made again.
      if (this.offer?.answer.isConnected) this.showFollowUps();
    });
    this.artifacts = new Artifacts({
      stored: (id) => this.result(id),
      query: (sql) => api.query(this.conversationId(), { sql }),
      run: (sql, origin, messageId) => api.query(this.conversationId(), { sql, origin, message_id: messageId || undefined }),
      placeRun: (origin, messageId) => this.placeRun(origin, messageId),
      conversation: () => this.conversationId(),
      resized: () => this.scroll(),
      stay: () => this.stayHere(),
      announce: (text) => this.announce(text),
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
    this.offer = null;
    this.results.clear();
    this.follow = true;
  }

  hasMessages() {
    return this.container.querySelector('.message') !== null;
  }

  result(id) {
    if (!this.results.has(id)) {
      this.results.set(id, api.result(id));
    }
    return this.results.get(id);
  }

  /**
   * @param runs the user's own runs ({result_id, origin, message_id, created_at}), oldest first: an edit stands under
   *             its answer, the rest (the SQL runner's) among the messages in time order
   */
  async showConversation(messages, runs = []) {
    this.clear();
    const { items, editsOf } = timeline(messages, runs);
    this.fetchResults(messages, runs);
    let question = '';
    let last = null;
    let lastId = null;
    for (const item of items) {
      last = null;
      if (isRun(item)) {
        await this.addStoredRun(this.runArticle(), item);
      } else if (item.role === 'user') {
        question = item.content;
        this.addUser(item.content);
      } else if (item.role === 'assistant') {
        const parts = await this.addStoredAnswer(item, question);
        for (const run of editsOf(item.id)) await this.addStoredRun(parts.artifacts, run);
        last = item.status === 'complete' ? parts : null;
        lastId = item.id;
      }
    }
    if (last?.lastResult) this.offerFollowUps(last.el, last.lastResult, lastId);
    this.scrollToEnd();
  }

  /**
   * Asks for every result the conversation shows at once, so that drawing them in order waits one round trip, not one
   * each. A failure is said where its result stands (the drawing awaits the same request); not here.
   */
  fetchResults(messages, runs) {
    const ids = [...messages.flatMap((m) => m.result_ids || []), ...runs.map((r) => r.result_id)];
    ids.forEach((id) => this.result(id).catch(() => {}));
  }

  /** A stored run of the user's own, drawn from its stored result. */
  async addStoredRun(parent, run) {
    const block = this.artifacts.block(parent);
    try {
      const result = await this.result(run.result_id);
      this.artifacts.result(block, result.sql, result, { origin: run.origin, messageId: () => run.message_id });
    } catch (e) {
      block.textContent = `Result unavailable: ${e.message}`;
    }
  }

  /** Where a new run goes: an edit under its answer (after what it shows), any other run at the end. */
  placeRun(origin, messageId) {
    const answer = origin === 'edited' && messageId
      ? [...this.container.querySelectorAll('.message.assistant')].find((el) => el.dataset.messageId === messageId)
      : null;
    return answer ? answer.querySelector('.artifacts') : this.runArticle();
  }

  /** A run of the SQL runner stands in the conversation as an entry of its own. */
  runArticle() {
    const el = document.createElement('article');
    el.className = 'message run';
    const artifacts = document.createElement('div');
    artifacts.className = 'artifacts';
    el.append(artifacts);
    this.container.append(el);
    return artifacts;
  }

  /** The reader's own question: the view goes to the end and follows the answer from there. */
  addUser(text) {
    const el = document.createElement('article');
    el.className = 'message user';
    el.textContent = text;
    // Suggestions belong to the answer before this question.
    this.offer = null;
    this.container.querySelectorAll('.follow-ups').forEach((chips) => chips.remove());
    // Only the conversation's last answer can be continued.
    this.container.querySelectorAll('.continue-answer').forEach((b) => b.remove());
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

  /** @param question the question it answers, for Retry when it failed */
  async addStoredAnswer(message, question) {
    const parts = this.answerElement(message.id);
    const { content, artifacts } = parts;
    parts.el.answerText = message.content;
    content.replaceChildren(renderMarkdown(message.content));
    if (message.status !== 'streaming') finishAnswer(parts, message.content, message.numbers);
    for (const id of message.result_ids || []) {
      const block = this.artifacts.block(artifacts);
      try {
        const result = await this.result(id);
        parts.lastResult = result;
        // Its edits and re-runs stand under this answer, after a reload as when it was written.
        this.artifacts.result(block, result.sql, result, { messageId: () => message.id });
      } catch (e) {
        block.textContent = `Result unavailable: ${e.message}`;
      }
    }
    for (const item of message.charts || []) {
      const block = this.artifacts.block(artifacts);
      if (item.kind === 'table') {
        this.artifacts.table(block, item);
      } else {
        this.artifacts.chart(block, item.result_id, item.spec, item.data);
      }
    }
    if (message.status === 'error') {
      this.errorBox(artifacts, message.notice || ERROR_NOTE, null, question);
    } else {
      const note = message.notice || STATUS_NOTES[message.status];
      if (note) this.note(artifacts, note);
      if (message.status === 'complete' && message.notice === CUT_OFF) this.continueButton(artifacts, message.id);
    }
    return parts;
  }

  /** Under an answer cut off at the model's output limit: asks the model to go on, into the same answer. */
  continueButton(parent, messageId) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'continue-answer';
    button.textContent = 'Continue';
    button.setAttribute('aria-label', 'Continue the answer from where it was cut off');
    button.addEventListener('click', () => this.resume(messageId));
    parent.append(button);
  }

  /**
   * The cut-off answer streams again: what arrives is appended to its text, in the same message. Its notice and
   * Continue go (the end says again whether it was cut off), and its copy button, which copies the whole text once
   * it ends. Null when the answer is not on the page.
   */
  continueAnswer(messageId) {
    const el = [...this.container.querySelectorAll('.message.assistant')]
      .find((m) => m.dataset.messageId === messageId);
    if (!el) return null;
    const content = el.querySelector('.content');
    const artifacts = el.querySelector('.artifacts');
    artifacts.querySelectorAll('.continue-answer').forEach((b) => b.remove());
    artifacts.querySelectorAll('.status-note').forEach((n) => { if (n.textContent === CUT_OFF) n.remove(); });
    el.querySelector(':scope > .answer-tools')?.remove();
    content.classList.add('cursor');
    const phase = document.createElement('div');
    phase.className = 'phase';
    el.insertBefore(phase, artifacts);
    this.active = { el, content, artifacts, phase, text: el.answerText || '', id: messageId, question: null };
    this.scrollToEnd();
    return this.active;
  }

  /**
   * A placeholder for the answer that is about to stream; its id arrives with the 202 or the first token.
   * @param question what it answers, for Retry if it fails
   */
  startAnswer(question) {
    const parts = this.answerElement(null);
    parts.content.classList.add('cursor');
    const phase = document.createElement('div');
    phase.className = 'phase';
    parts.el.insertBefore(phase, parts.artifacts);
    this.active = { ...parts, phase, text: '', id: null, question };
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
        if (a) {
          a.lastResult = event;
          this.artifacts.storedResult(this.artifacts.block(a.artifacts), event, () => a.id);
        }
        break;
      case EVENTS.QUERY_ERROR:
        if (a) this.artifacts.error(this.artifacts.block(a.artifacts), event.sql, event.error);
        break;
      case EVENTS.CHART:
        if (a) this.artifacts.chart(this.artifacts.block(a.artifacts), event.result_id, event.spec, event.data);
        break;
      case EVENTS.TABLE:
        if (a) this.artifacts.table(this.artifacts.block(a.artifacts), event);
        break;
      case EVENTS.CHAT_COMPLETE:
        if (a && event.notice && (!a.id || a.id === event.message_id)) {
          this.note(a.artifacts, event.notice);
          if (event.notice === CUT_OFF) this.continueButton(a.artifacts, event.message_id);
        }
        if (a && !a.finished && a.lastResult && (!a.id || a.id === event.message_id)) {
          this.offerFollowUps(a.el, a.lastResult, event.message_id);
        }
        this.finish(event.message_id, event.numbers);
        break;
      case EVENTS.CHAT_ERROR:
        if (a) {
          this.claim(event.message_id);
          this.errorBox(a.artifacts, event.error, event.details, a.question);
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
      // A frame asked for before the answer finished would redraw its text without the checked numbers' marks.
      if (a.finished) return;
      a.content.replaceChildren(renderMarkdown(a.text));
      this.scroll();
    });
  }

  /** @param numbers the server's check of the answer's numbers (chat_complete), if any */
  finish(id, numbers) {
    const a = this.active;
    if (!a || (a.id && id && a.id !== id)) return;
    a.finished = true;
    a.el.answerText = a.text;
    a.content.classList.remove('cursor');
    a.content.replaceChildren(renderMarkdown(a.text));
    finishAnswer(a, a.text, numbers);
    a.phase.remove();
    this.active = null;
    this.scroll();
    const text = a.content.textContent.trim();
    if (text) this.announce(`Answer: ${text.length > ANNOUNCE_CHARS ? `${text.slice(0, ANNOUNCE_CHARS)}…` : text}`);
  }

  /**
   * Next questions under an answer that showed a result; a click asks one. The page makes them from the schema and
   * the result (follow-ups.js), or, where the server says chat.followUps=model, the model writes them (its own are
   * offered when it cannot).
   */
  offerFollowUps(answer, result, messageId) {
    this.offer = { answer, result, messageId };
    this.showFollowUps();
  }

  showFollowUps() {
    const { answer, result, messageId } = this.offer;
    const asked = [...this.container.querySelectorAll('.message.user')].map((el) => el.textContent);
    const own = followUps(result, this.datasets, asked);
    if (this.followUpsByModel && messageId) {
      this.writtenFollowUps(messageId).then((written) => this.showChips(answer, written?.length ? written : own));
    } else {
      this.showChips(answer, own);
    }
  }

  /**
   * Asked once an answer, whatever redraws it: kept for the tab's session, so a reload spends no more of the budget;
   * null when the model could not write them.
   */
  writtenFollowUps(messageId) {
    const key = `quarry.followUps.${messageId}`;
    const kept = sessionStorage.getItem(key);
    if (kept) return Promise.resolve(JSON.parse(kept));
    if (!this.written.has(messageId)) {
      this.written.set(messageId, api.followUps(this.conversationId(), messageId).then((r) => {
        sessionStorage.setItem(key, JSON.stringify(r.questions));
        return r.questions;
      }, () => null));
    }
    return this.written.get(messageId);
  }

  showChips(answer, questions) {
    // A question asked meanwhile took the suggestions away: they stay away.
    if (this.offer?.answer !== answer) return;
    answer.querySelectorAll(':scope > .follow-ups').forEach((chips) => chips.remove());
    if (questions.length) answer.append(followUpChips(questions, (question) => this.retry(question)));
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

  /** An answer's error, with Retry (the same question asked again) when there is a question to ask. */
  errorBox(parent, error, details, question) {
    const box = document.createElement('div');
    box.className = 'error-box';
    box.setAttribute('role', 'alert');
    const text = document.createElement('p');
    text.textContent = error;
    box.append(text);
    if (question) {
      const retry = document.createElement('button');
      retry.type = 'button';
      retry.className = 'retry';
      retry.textContent = 'Retry';
      retry.setAttribute('aria-label', `Retry: ${question.length > 80 ? `${question.slice(0, 80)}…` : question}`);
      retry.addEventListener('click', () => this.retry(question));
      box.append(retry);
    }
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

  /** A result of the SQL runner, stored as the user's own run: it shows again after a reload. */
  showSqlResult(sql, result) {
    this.artifacts.showRun(sql, result, 'runner', null);
    this.scrollToEnd();
  }

  /** A SQL runner's query that failed: nothing was stored, and it says why. */
  showSqlError(sql, message) {
    this.artifacts.showRunError(sql, message, 'runner', null);
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

  /** The reader was led somewhere (a linked result): charts drawn later below must not pull the view to the end. */
  stayHere() {
    this.follow = false;
  }
}
