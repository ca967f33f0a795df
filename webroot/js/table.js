// A result table over every stored row of a result (a stored result keeps at most 1,000): paged, sortable, with
// the row count, the result's note, and, when the stored rows are only the first of the result's, a plain
// "Showing the first N of M rows". Its parts: the header row and its sort (table-head.js, table-sort.js), the page
// of rows (table-body.js), the footer (table-footer.js) and the actions on the rows (table-actions.js).
// Numbers read in the reader's locale and a column's timestamps in one format (format.js); the header row stays in
// view. The table is one tab stop: the arrow keys move between its cells (grid-keys.js).
import { columnFormat } from './format.js';
import { giveTabStop, gridKeys, makeRoving } from './grid-keys.js';
import { hideTip } from './cell-tip.js';
import { registerRaw } from './raw-copy.js';
import { headKeys, tableHead } from './table-head.js';
import { clippedCells, markClipped, tableBody } from './table-body.js';
import { footerParts } from './table-footer.js';
import { tableActions } from './table-actions.js';
import { nextSort, resortAll, sortHeld } from './table-sort.js';

const PAGE_SIZE = 10;

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
  const { table, footer } = frame(container, result.note);

  /** Whether the stored rows are only the first of the result's. */
  const partial = () => state.shown.rows.length < state.shown.total_rows;
  const sortable = () => !partial() || resort;
  const pageRows = () => state.rows.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE);
  /** One format per column over all the rows it holds, so that every page reads alike. */
  const formats = () => {
    if (!state.formats) state.formats = columns.map((c) => columnFormat(c, state.rows.map((row) => row[c.index])));
    return state.formats;
  };
  const sortNow = () => (state.sort
    ? { column: result.columns[state.sort.index].name, ascending: state.sort.ascending } : null);

  gridKeys(table);
  registerRaw(table, () => ({ columns, rowAt: (i) => pageRows()[i] }));
  clippedCells(table, (td) => pageRows()[td.parentElement.sectionRowIndex]?.[columns[td.cellIndex].index]);
  headKeys(table, sortable, (position) => sortBy(columns[position]));

  function sortBy(column) {
    const sort = nextSort(state.sort, column);
    if (partial()) {
      resortAll(state, column, sort, resort, drawFooter).then(draw);
      return;
    }
    sortHeld(state, column, sort);
    draw();
  }

  function draw() {
    const hadFocus = table.contains(document.activeElement);
    const focused = hadFocus ? document.activeElement.closest('th, td') : null;
    if (focused) state.focusColumn = focused.cellIndex;
    hideTip();
    const head = tableHead(columns, { formats: formats(), sort: state.sort, sortable: sortable(), onSort: sortBy });
    table.replaceChildren(head, tableBody(pageRows(), columns, formats()));
    // The tab stop stays on the header cell of the column last focused; focus comes back to it after a sort.
    const stop = head.rows[0].cells[Math.min(state.focusColumn, columns.length - 1)];
    makeRoving(table, stop);
    if (stop && hadFocus) giveTabStop(table, stop, true);
    markClipped(table);
    drawFooter();
  }

  function drawFooter() {
    const actions = tableActions({ columns, rows: () => state.rows, pageRows, partial: partial(),
      totalRows: state.shown.total_rows, sort: sortNow }, saved);
    footer.replaceChildren(...footerParts({ ...state, pages: Math.max(1, Math.ceil(state.rows.length / PAGE_SIZE)),
      partial: partial() }, { onPage: (step) => { state.page += step; draw(); }, actions }));
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

  draw();
  return { showCell, sort: sortNow };
}

/** The table in its scrolling box, the footer under it, and the result's note, if any, above. */
function frame(container, note) {
  container.replaceChildren();
  const scroll = document.createElement('div');
  scroll.className = 'table-scroll';
  const table = document.createElement('table');
  table.className = 'result-table';
  scroll.append(table);
  const footer = document.createElement('div');
  footer.className = 'table-footer';
  container.append(scroll, footer);
  if (note) {
    // Where the rows came from, when the reader must know it (a cached copy not confirmed current).
    const p = document.createElement('p');
    p.className = 'result-note';
    p.setAttribute('role', 'note');
    p.textContent = note;
    container.prepend(p);
  }
  return { table, footer };
}

/** One cell marked on the page at a time: the one a number of an answer was found in. */
function mark(element) {
  document.querySelectorAll('.found-cell').forEach((el) => el.classList.remove('found-cell'));
  element.classList.add('found-cell');
  element.scrollIntoView({ block: 'center', inline: 'nearest' });
}
