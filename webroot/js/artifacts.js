// What an answer or a SQL run shows besides its text: results with their SQL panel, tables, charts, SQL errors.
// A result is always drawn from its stored copy (every stored row), live as after a reload, so both show the same.
// Running a result's SQL again, edited or not, never changes that result: the new one is stored as the user's own
// run and shown as a result of its own ("Edited SQL" under its answer, "SQL run" for the SQL runner's), with its own
// table and chart; a run that fails says so in a block of its own.
import { renderTable } from './table.js';
import { renderChart } from './chart.js';
import { chartActions } from './chart-actions.js';
import { chartImageActions } from './chart-image.js';
import { resultActions, tell } from './result-export.js';
import { registerResultTable } from './numbers.js';
import { watchVersion } from './data-changed.js';
import { resultElementId } from './address.js';
import { count } from './format.js';
import { busy } from './keep-focus.js';
import { api } from './api.js';
import { pinButton, questionOf, firstLine } from './pin-dialog.js';

/** What a result block of the user's own run is called, and what one that failed is called. */
const RUN_LABELS = { edited: 'Edited SQL', runner: 'SQL run' };

/** The query again, sorted by the column at a 1-based position of its result, nulls last as the table sorts. */
export function sortedSql(sql, position, ascending) {
  // The newlines end a trailing line comment; a trailing semicolon would end the statement inside the brackets.
  const inner = sql.trim().replace(/;+\s*$/, '');
  return `SELECT * FROM (\n${inner}\n) AS sorted_result ORDER BY ${position} ${ascending ? 'ASC' : 'DESC'} NULLS LAST`;
}

export class Artifacts {
  /**
   * @param stored       (resultId) => Promise of the stored result
   * @param query        (sql) => Promise of a new result of that SQL in this conversation (a table's re-sort)
   * @param run          (sql, origin, messageId) => Promise of a new result stored as the user's own run
   * @param placeRun     (origin, messageId) => the element a new run's block goes in
   * @param conversation () => the id of the conversation shown
   * @param resized      () => void, after something was drawn later than its block was placed
   * @param stay         () => void: the view was led to a block, what is drawn later must not pull it to the end
   * @param announce     (text) => void: tells screen readers, politely
   */
  constructor({ stored, query, run, placeRun, conversation, resized, stay = () => {}, announce = () => {} }) {
    this.stored = stored;
    this.query = query;
    this.run = run;
    this.placeRun = placeRun;
    this.conversation = conversation;
    this.resized = resized;
    this.stay = stay;
    this.announce = announce;
  }

  block(parent) {
    const block = document.createElement('section');
    block.className = 'artifact';
    parent.append(block);
    return block;
  }

  tableOptions(sql, columns) {
    return { columns, resort: sql ? (position, ascending) => this.query(sortedSql(sql, position, ascending)) : null };
  }

  /**
   * A live query_result: its event carries only the first rows, so the table is drawn from the stored result.
   * @param messageId () => the id of the answer it belongs to
   */
  async storedResult(block, event, messageId) {
    const waiting = document.createElement('p');
    waiting.className = 'phase';
    waiting.textContent = 'Loading the result…';
    block.append(waiting);
    let result;
    try {
      result = await this.stored(event.result_id);
    } catch {
      result = { ...event, id: event.result_id }; // its first rows, which the table says are only the first
    }
    waiting.remove();
    this.result(block, event.sql, result, { messageId });
    this.resized();
  }

  /** A run's label, when the result is the user's own: "Edited SQL" or "SQL run". */
  label(block, origin, failed) {
    const label = document.createElement('p');
    label.className = 'run-label';
    label.textContent = RUN_LABELS[origin] + (failed ? ': not run' : '');
    block.classList.add('run', origin);
    block.prepend(label);
  }

  /**
   * The "Show SQL" panel (editable, runnable again) above the result's table, and its chart actions below.
   * @param origin    'edited' or 'runner' for the user's own runs; absent for an answer's result
   * @param messageId () => the answer the result stands under (null for the SQL runner)
   */
  result(block, sql, result, { origin, messageId = () => null } = {}) {
    const details = document.createElement('details');
    details.className = 'sql-panel';
    // A run shows what ran: its SQL is open.
    details.open = Boolean(origin);
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
    run.title = 'Runs this SQL as a new result below; this one stays as it is';
    details.append(summary, editor, run);
    const holder = document.createElement('div');
    block.append(details, holder);
    // Its address, /c/<id>#result-<result id>, leads here (the first block showing it, when two do).
    if (result.id && !document.getElementById(resultElementId(result.id))) block.id = resultElementId(result.id);
    if (origin) this.label(block, origin, false);
    const drawn = renderTable(holder, result, { ...this.tableOptions(sql), saved: (text) => tell(actions, text) });
    registerResultTable(result.id, holder, drawn.showCell);
    const actions = resultActions(result, sql, drawn.sort);
    if (actions) block.append(actions);
    if (result.id) block.append(pinButton(() => ({ result_id: result.id, kind: 'table',
      title: questionOf(block) || firstLine(sql) })));
    const charting = chartActions(result, { drawn: () => this.resized(), data: (spec) => api.chartData(result.id, spec) });
    if (charting) block.append(charting);
    // The same SQL on the data as it is now, a result of its own after this one (an answer's stands under it).
    watchVersion(block, result, (button) => this.runAgain(button, sql || '', origin === 'runner' ? 'runner' : 'edited',
      messageId(), () => {}));
    // Once its edit is a result of its own, the panel shows again the SQL of the table under it.
    run.addEventListener('click', () => this.runAgain(run, editor.value, origin === 'runner' ? 'runner' : 'edited',
      messageId(), () => { editor.value = sql || ''; }));
  }

  /**
   * The SQL of a result run again as the user's own run: a new stored result, or a block saying why it failed.
   * @param ran () => void, once the new result is shown
   */
  async runAgain(button, sql, wanted, messageId, ran) {
    if (!sql.trim()) return;
    // An edit of an answer's SQL stands under the answer; without one (not stored yet) it is a run of its own.
    const origin = wanted === 'edited' && !messageId ? 'runner' : wanted;
    const conversation = this.conversation();
    const done = busy(button);
    try {
      const result = await this.run(sql, origin, messageId);
      if (conversation === this.conversation()) {
        this.showRun(sql, result, origin, messageId);
        ran();
      }
    } catch (e) {
      if (conversation === this.conversation()) this.showRunError(sql, e.message, origin, messageId);
    } finally {
      done();
    }
  }

  /**
   * A new run's block, where its origin puts it (an edit under its answer, maybe far above the end), brought into
   * view and kept there: following the end afterwards would scroll it away. Screen readers hear where it is.
   */
  showRun(sql, result, origin, messageId) {
    const block = this.block(this.placeRun(origin, messageId));
    this.result(block, sql, result, { origin, messageId: () => messageId });
    this.resized();
    block.scrollIntoView({ block: 'nearest' });
    this.stay();
    this.announce(`New result below: ${RUN_LABELS[origin]}, ${count(result.total_rows, 'row')}`);
    return block;
  }

  showRunError(sql, message, origin, messageId) {
    const block = this.block(this.placeRun(origin, messageId));
    this.error(block, sql, message, true);
    this.label(block, origin, true);
    block.scrollIntoView({ block: 'nearest' });
    return block;
  }

  /** @param alert whether screen readers hear of it at once (the user's own run, not the model's attempts) */
  error(block, sql, message, alert = false) {
    const code = document.createElement('pre');
    code.textContent = sql;
    const error = document.createElement('p');
    error.className = 'field-error';
    if (alert) error.setAttribute('role', 'alert');
    error.textContent = message;
    block.append(code, error);
  }

  /** @param data what it draws, computed from every row of the result; asked for when a chart came without it */
  async chart(block, resultId, spec, data) {
    const holder = document.createElement('div');
    block.append(holder);
    try {
      await renderChart(holder, spec, data || await api.chartData(resultId, spec));
      const images = chartImageActions(holder, spec.title);
      if (images) block.append(images);
      block.append(pinButton(() => ({ result_id: resultId, kind: 'chart', chart: spec,
        title: spec.title || questionOf(block) || 'Chart' })));
    } catch (e) {
      holder.textContent = `Chart unavailable: ${e.message}`;
    }
    this.resized();
  }

  async table(block, { result_id: resultId, title, columns }) {
    if (title) {
      const h = document.createElement('h3');
      h.textContent = title;
      block.append(h);
    }
    const holder = document.createElement('div');
    block.append(holder);
    try {
      const result = await this.stored(resultId);
      const drawn = renderTable(holder, result, { ...this.tableOptions(result.sql, columns),
        saved: (text) => tell(actions, text) });
      registerResultTable(resultId, holder, drawn.showCell);
      // The file holds the whole result, every column, as the table's own result does.
      const actions = resultActions(result, result.sql, drawn.sort);
      if (actions) block.append(actions);
    } catch (e) {
      holder.textContent = `Table unavailable: ${e.message}`;
    }
    this.resized();
  }
}
