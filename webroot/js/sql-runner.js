// The datasets panel's SQL runner. Its query belongs to the conversation it was typed in (another conversation shows
// its own), and each run is stored as the user's own: it shows as "SQL run" in its conversation, after a reload too.
import { api } from './api.js';
import { elements } from './elements.js';
import { showProgress } from './progress.js';

const $ = elements(['sql-input', 'sql-progress', 'sql-run']);

export class SqlRunner {
  /**
   * @param conversationId () => the conversation shown
   * @param shown          {result(sql, result), error(sql, message)}: shows a run in the conversation shown
   * @param ran            () => void, after each run
   */
  constructor(conversationId, { shown, ran = () => {} }) {
    this.conversationId = conversationId;
    this.shown = shown;
    this.ran = ran;
    /** What the SQL box held in each conversation shown: another conversation's query is never run by mistake. */
    this.drafts = new Map();
    /** Runs under way, by conversation: each conversation's progress shows while its own runs fetch. */
    this.running = new Map();
    $('sql-run').addEventListener('click', () => this.run());
  }

  /** Keeps what the box held for the conversation left, and shows what it held for the one opened. */
  switchConversation(from, to) {
    if (from === to) return;
    if (from) this.drafts.set(from, $('sql-input').value);
    $('sql-input').value = this.drafts.get(to) || '';
    this.hideProgress();
  }

  /** A query_progress event of the conversation shown: shown while one of its runs waits for data. */
  progress(event) {
    if (!(this.running.get(event.conversation_id) > 0)) return;
    $('sql-progress').hidden = false;
    showProgress($('sql-progress'), event);
  }

  hideProgress() {
    $('sql-progress').hidden = true;
    $('sql-progress').replaceChildren();
  }

  /** Runs the box's query in the conversation shown; its result shows there if that conversation still is. */
  async run() {
    const sql = $('sql-input').value.trim();
    const conversation = this.conversationId();
    if (!sql || !conversation) return;
    this.running.set(conversation, (this.running.get(conversation) || 0) + 1);
    try {
      const result = await api.query(conversation, { sql, origin: 'runner' });
      if (conversation === this.conversationId()) this.shown.result(sql, result);
    } catch (e) {
      if (conversation === this.conversationId()) this.shown.error(sql, e.message);
    } finally {
      this.ran();
      // Runs started before this one ended may still be fetching: their progress stays until the last ends.
      const left = this.running.get(conversation) - 1;
      this.running.set(conversation, left);
      if (left === 0 && conversation === this.conversationId()) this.hideProgress();
    }
  }
}
