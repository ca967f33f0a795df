// What an answer or a SQL run shows besides its text: results with their SQL panel, tables, charts, SQL errors.
// A result is always drawn from its stored copy (every stored row), live as after a reload, so both show the same.
import { renderTable } from './table.js';
import { renderChart } from './chart.js';

/** The query again, sorted by the column at a 1-based position of its result, nulls last as the table sorts. */
export function sortedSql(sql, position, ascending) {
  // The newlines end a trailing line comment; a trailing semicolon would end the statement inside the brackets.
  const inner = sql.trim().replace(/;+\s*$/, '');
  return `SELECT * FROM (\n${inner}\n) AS sorted_result ORDER BY ${position} ${ascending ? 'ASC' : 'DESC'} NULLS LAST`;
}

export class Artifacts {
  /**
   * @param stored  (resultId) => Promise of the stored result
   * @param query   (sql) => Promise of a new result of that SQL in this conversation
   * @param resized () => void, after something was drawn later than its block was placed
   */
  constructor({ stored, query, resized }) {
    this.stored = stored;
    this.query = query;
    this.resized = resized;
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

  /** A live query_result: its event carries only the first rows, so the table is drawn from the stored result. */
  async storedResult(block, event) {
    const waiting = document.createElement('p');
    waiting.className = 'phase';
    waiting.textContent = 'Loading the result…';
    block.append(waiting);
    let result;
    try {
      result = await this.stored(event.result_id);
    } catch {
      result = event; // its first rows, which the table says are only the first
    }
    waiting.remove();
    this.result(block, event.sql, result);
    this.resized();
  }

  /** The "Show SQL" panel (editable, re-runnable) above the result's table. */
  result(block, sql, result) {
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
    const holder = document.createElement('div');
    block.append(details, holder);
    renderTable(holder, result, this.tableOptions(sql));
    run.addEventListener('click', async () => {
      error.textContent = '';
      run.disabled = true;
      try {
        const rerun = editor.value;
        renderTable(holder, await this.query(rerun), this.tableOptions(rerun));
      } catch (e) {
        error.textContent = e.message;
      } finally {
        run.disabled = false;
      }
    });
  }

  error(block, sql, message) {
    const code = document.createElement('pre');
    code.textContent = sql;
    const error = document.createElement('p');
    error.className = 'field-error';
    error.textContent = message;
    block.append(code, error);
  }

  async chart(block, resultId, spec) {
    const holder = document.createElement('div');
    block.append(holder);
    try {
      await renderChart(holder, spec, await this.stored(resultId));
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
      renderTable(holder, result, this.tableOptions(result.sql, columns));
    } catch (e) {
      holder.textContent = `Table unavailable: ${e.message}`;
    }
    this.resized();
  }
}
