// A result table over every stored row of a result (a stored result keeps at most 1,000): paged, sortable, with
// the row count, the result's note, and, when the stored rows are only the first of the result's, a plain
// "Showing the first N of M rows". A sort of such a table re-runs the query sorted (resort), so that what it
// shows is the sort of all the result's rows, never a sort of the rows that happen to be stored.
// Numbers read in the reader's locale and a column's timestamps in one format (format.js); a long value is cut with
// an ellipsis, shown whole beside its cell on hover or focus, and in the cell when clicked; the header row stays in
// view. The table is one tab stop: the arrow keys move between its cells (grid-keys.js).
import { columnFormat, isNumericType, rawText } from './format.js';
import { giveTabStop, gridKeys, makeRoving } from './grid-keys.js';
import { showTip, hideTip } from './cell-tip.js';
import { registerRaw, toCsv, toTsv } from './raw-copy.js';

const PAGE_SIZE = 10;

/** Nulls last in either direction, as the re-run query's NULLS LAST does. */
function comparator(column, ascending) {
  const numeric = isNumericType(column.type);
  const direction = ascending ? 1 : -1;
  return (left, right) => {
    const a = left[column.index];
    const b = right[column.index];
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    // Wide integers and decimals may come as strings: a numeric column compares as numbers either way.
    if (numeric || (typeof a === 'number' && typeof b === 'number')) return (Number(a) - Number(b)) * direction;
    return rawText(a).localeCompare(rawText(b), undefined, { numeric: true }) * direction;
  };
}

function count(n, word) {
  return `${Number(n).toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * @param result  {columns, rows, total_rows, truncated, execution_time_ms, note}
 * @param options {columns: names to show (all when absent), resort: (position, ascending) => Promise<result>, the
 *                same query sorted by its column at that 1-based position, saved: (text) => void, told what
 *                "Save table rows (CSV)" saved}
 * @return {showCell, sort: () => the table's sort as {column, ascending}, or null in the result's own order}
 */
export function renderTable(container, result, { columns: visible, resort, saved = () => {} } = {}) {
  const columns = result.columns
    .map((c, index) => ({ ...c, index }))
    .filter((c) => !visible || visible.includes(c.name));
  const state = { shown: result, rows: result.rows.slice(), page: 0, sort: null, status: '', failed: false,
    focusColumn: 0, formats: null };
  container.replaceChildren();
  const scroll = document.createElement('div');
  scroll.className = 'table-scroll';
  const table = document.createElement('table');
  table.className = 'result-table';
  scroll.append(table);
  const footer = document.createElement('div');
  footer.className = 'table-footer';
  container.append(scroll, footer);
  if (result.note) {
    // Where the rows came from, when the reader must know it (a cached copy not confirmed current).
    const note = document.createElement('p');
    note.className = 'result-note';
    note.setAttribute('role', 'note');
    note.textContent = result.note;
    container.prepend(note);
  }
  gridKeys(table);
  registerRaw(table, () => ({ columns, rowAt: (i) => pageRows()[i] }));
  table.addEventListener('click', (e) => toggleCell(e.target.closest('td')));
  table.addEventListener('keydown', onKey);
  table.addEventListener('focusin', (e) => tipFor(e.target.closest('td')));
  table.addEventListener('focusout', (e) => hideTip(e.target.closest('td')));
  table.addEventListener('mouseover', (e) => tipFor(e.target.closest('td')));
  table.addEventListener('mouseout', (e) => {
    const td = e.target.closest('td');
    if (td && !td.contains(e.relatedTarget) && document.activeElement !== td) hideTip(td);
  });

  /** Whether the stored rows are only the first of the result's. */
  const partial = () => state.shown.rows.length < state.shown.total_rows;
  const pageRows = () => state.rows.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);

  /** One format per column over all the rows it holds, so that every page reads alike. */
  function formats() {
    if (!state.formats) state.formats = columns.map((c) => columnFormat(c, state.rows.map((row) => row[c.index])));
    return state.formats;
  }

  async function sortBy(column) {
    const ascending = state.sort?.index === column.index ? !state.sort.ascending : true;
    if (!partial()) {
      state.rows.sort(comparator(column, ascending));
      Object.assign(state, { sort: { index: column.index, ascending }, page: 0, status: '', failed: false });
      draw();
      return;
    }
    Object.assign(state, { status: `Sorting all ${count(state.shown.total_rows, 'row')}…`, failed: false });
    drawFooter();
    try {
      const sorted = await resort(column.index + 1, ascending);
      Object.assign(state, { shown: sorted, rows: sorted.rows.slice(), sort: { index: column.index, ascending },
        page: 0, status: '', failed: false, formats: null });
    } catch (e) {
      Object.assign(state, { status: `Could not sort: ${e.message}`, failed: true });
    }
    draw();
  }

  function sortable() {
    return !partial() || resort;
  }

  function header(column, position) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.title = column.type;
    if (formats()[position].numeric) th.classList.add('num');
    const sorted = state.sort?.index === column.index;
    const label = document.createElement('div');
    label.className = 'cell';
    label.textContent = column.name + (sorted ? (state.sort.ascending ? ' ▲' : ' ▼') : '');
    th.append(label);
    th.setAttribute('aria-sort', sorted ? (state.sort.ascending ? 'ascending' : 'descending') : 'none');
    if (!sortable()) {
      th.title = `${column.type} · sorting needs all the rows, and only the first are here`;
      return th;
    }
    th.classList.add('sortable');
    th.addEventListener('click', () => sortBy(column));
    return th;
  }

  function cell(row, column, position) {
    const td = document.createElement('td');
    const value = row[column.index];
    const shown = document.createElement('div');
    shown.className = 'cell';
    if (value === null || value === undefined) {
      shown.textContent = '∅';
      td.classList.add('null');
    } else {
      const fmt = formats()[position];
      shown.textContent = fmt.text(value);
      if (fmt.numeric) td.classList.add('num');
    }
    td.append(shown);
    return td;
  }

  /** Enter sorts by a header; on a long value Enter shows it whole in its cell, or cuts it again. */
  function onKey(e) {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const th = e.target.closest('th');
    if (th && sortable()) {
      e.preventDefault();
      sortBy(columns[th.cellIndex]);
      return;
    }
    const td = e.target.closest('td');
    if (td && e.key === 'Enter' && toggleCell(td)) e.preventDefault();
  }

  function toggleCell(td) {
    if (!td || !(td.classList.contains('clipped') || td.classList.contains('expanded'))) return false;
    const expanded = td.classList.toggle('expanded');
    td.classList.toggle('clipped', !expanded);
    hideTip(td);
    return true;
  }

  function tipFor(td) {
    if (!td || !td.classList.contains('clipped')) return;
    const value = pageRows()[td.parentElement.sectionRowIndex]?.[columns[td.cellIndex].index];
    showTip(td, rawText(value));
  }

  /** Marks the cells whose value does not fit: those have their full value on hover, focus and click. */
  function markClipped() {
    for (const shown of table.querySelectorAll('td > .cell')) {
      shown.parentElement.classList.toggle('clipped', shown.scrollWidth > shown.clientWidth + 1);
    }
  }

  function draw() {
    const hadFocus = table.contains(document.activeElement);
    const focused = hadFocus ? document.activeElement.closest('th, td') : null;
    if (focused) state.focusColumn = focused.cellIndex;
    hideTip();
    const head = document.createElement('thead');
    const headRow = document.createElement('tr');
    headRow.append(...columns.map(header));
    head.append(headRow);
    const body = document.createElement('tbody');
    for (const row of pageRows()) {
      const tr = document.createElement('tr');
      tr.append(...columns.map((column, position) => cell(row, column, position)));
      body.append(tr);
    }
    table.replaceChildren(head, body);
    // The tab stop stays on the header cell of the column last focused; focus comes back to it after a sort.
    const stop = headRow.cells[Math.min(state.focusColumn, columns.length - 1)];
    makeRoving(table, stop);
    if (stop && hadFocus) giveTabStop(table, stop, true);
    markClipped();
    drawFooter();
  }

  function drawFooter() {
    const shown = state.shown;
    const pages = Math.max(1, Math.ceil(state.rows.length / PAGE_SIZE));
    const rowCount = document.createElement('span');
    rowCount.className = 'row-count';
    rowCount.textContent = count(shown.total_rows, 'row')
      + (shown.execution_time_ms !== undefined ? ` · ${shown.execution_time_ms} ms` : '');
    const previous = button('‹ Previous', state.page === 0, () => { state.page -= 1; draw(); });
    const next = button('Next ›', state.page >= pages - 1, () => { state.page += 1; draw(); });
    const where = document.createElement('span');
    where.className = 'page-number';
    where.textContent = `Page ${state.page + 1} of ${pages}`;
    footer.replaceChildren(rowCount, previous, where, next, rawActions());
    if (partial()) footer.append(partialNote(shown, state.sort));
    if (state.status) {
      const status = document.createElement('span');
      status.className = `table-status${state.failed ? ' error' : ''}`;
      status.setAttribute('role', 'status');
      status.textContent = state.status;
      footer.append(status);
    }
  }

  /** The stored rows' raw values, in the table's order: copied as tab-separated text, or saved as CSV. */
  function rawActions() {
    const actions = document.createElement('span');
    actions.className = 'table-actions';
    const copy = button('Copy rows', false, async () => {
      try {
        await navigator.clipboard.writeText(toTsv(columns, state.rows));
        copy.textContent = 'Copied';
      } catch {
        copy.textContent = 'Copy failed';
      }
      setTimeout(() => { copy.textContent = 'Copy rows'; }, 2000);
    });
    // Only the rows this table holds, named apart from the result's "Download CSV" of every row.
    const csv = button('Save table rows (CSV)', false, () => {
      download(toCsv(columns, state.rows));
      saved(savedNote());
    });
    csv.title = partial() ? `Only the ${state.rows.length.toLocaleString()} rows this table holds; "Download CSV" `
      + 'gives every row' : 'The rows of this table, as shown';
    actions.append(copy, csv);
    return actions;
  }

  /**
   * Brings a stored row into view (0-based, in the result's own order) and marks its cell; -1 marks the row count.
   * A table sorted since shows the result's own order again, so that the row is the one that was meant.
   * @return the element marked, or null when the row is not one this table holds
   */
  function showCell(row, columnName) {
    if (row < 0) {
      const rows = footer.querySelector('.row-count');
      mark(rows);
      return rows;
    }
    const wanted = result.rows[row];
    if (!wanted) return null;
    if (state.shown !== result || state.sort) {
      Object.assign(state, { shown: result, rows: result.rows.slice(), sort: null, status: '', failed: false,
        formats: null });
    }
    const index = state.rows.indexOf(wanted);
    state.page = Math.floor(index / PAGE_SIZE);
    draw();
    const tr = table.tBodies[0].rows[index % PAGE_SIZE];
    const position = columns.findIndex((c) => c.name === columnName);
    const td = tr.cells[Math.max(0, position)];
    mark(td);
    giveTabStop(table, td, true);
    return td;
  }

  /** What "Save table rows (CSV)" saved: the rows this table holds, in its order, which may not be every row. */
  function savedNote() {
    const rows = count(state.rows.length, 'row');
    const order = sortNow() ? `, sorted by ${sortNow().column} ${sortNow().ascending ? 'ascending' : 'descending'}` : '';
    return partial() ? `Saved the ${rows} this table holds (of ${count(state.shown.total_rows, 'row')}) as CSV${order};`
      + ' "Download CSV" gives every row.' : `Saved the table's ${rows} as CSV${order}.`;
  }

  function sortNow() {
    return state.sort ? { column: result.columns[state.sort.index].name, ascending: state.sort.ascending } : null;
  }

  draw();
  return { showCell, sort: sortNow };
}

/** One cell marked on the page at a time: the one a number of an answer was found in. */
function mark(element) {
  document.querySelectorAll('.found-cell').forEach((el) => el.classList.remove('found-cell'));
  element.classList.add('found-cell');
  element.scrollIntoView({ block: 'center', inline: 'nearest' });
}

function download(text) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  link.download = 'result.csv';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

function partialNote(shown, sort) {
  const note = document.createElement('span');
  note.className = 'truncated';
  // Fewer than 1,000 kept means the rows reached a result's size limit first.
  note.textContent = `Showing the first ${shown.rows.length.toLocaleString()} of ${count(shown.total_rows, 'row')}`
    + (shown.truncated && shown.rows.length < 1000 ? ' (a result keeps about 2 MB of rows at most)' : '')
    + (sort ? ', sorted over all of them' : '');
  return note;
}

function button(label, disabled, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}
