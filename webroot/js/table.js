// A result table over every stored row of a result (a stored result keeps at most 1,000): paged, sortable, with
// the row count, the result's note, and, when the stored rows are only the first of the result's, a plain
// "Showing the first N of M rows". A sort of such a table re-runs the query sorted (resort), so that what it
// shows is the sort of all the result's rows, never a sort of the rows that happen to be stored.
const PAGE_SIZE = 10;
const NUMERIC_TYPE = /INT|DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC/i;

function format(value) {
  if (value === null || value === undefined) return '∅';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Nulls last in either direction, as the re-run query's NULLS LAST does. */
function comparator(column, ascending) {
  const numeric = NUMERIC_TYPE.test(column.type || '');
  const direction = ascending ? 1 : -1;
  return (left, right) => {
    const a = left[column.index];
    const b = right[column.index];
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    // Wide integers and decimals may come as strings: a numeric column compares as numbers either way.
    if (numeric || (typeof a === 'number' && typeof b === 'number')) return (Number(a) - Number(b)) * direction;
    return String(format(a)).localeCompare(String(format(b)), undefined, { numeric: true }) * direction;
  };
}

function count(n, word) {
  return `${Number(n).toLocaleString()} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * @param result  {columns, rows, total_rows, truncated, execution_time_ms, note}
 * @param options {columns: names to show (all when absent), resort: (position, ascending) => Promise<result>, the
 *                same query sorted by its column at that 1-based position}
 */
export function renderTable(container, result, { columns: visible, resort } = {}) {
  const columns = result.columns
    .map((c, index) => ({ ...c, index }))
    .filter((c) => !visible || visible.includes(c.name));
  const state = { shown: result, rows: result.rows.slice(), page: 0, sort: null, status: '', failed: false };
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

  /** Whether the stored rows are only the first of the result's. */
  const partial = () => state.shown.rows.length < state.shown.total_rows;

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
        page: 0, status: '', failed: false });
    } catch (e) {
      Object.assign(state, { status: `Could not sort: ${e.message}`, failed: true });
    }
    draw();
  }

  function header(column) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.title = column.type;
    const sorted = state.sort?.index === column.index;
    th.textContent = column.name + (sorted ? (state.sort.ascending ? ' ▲' : ' ▼') : '');
    th.setAttribute('aria-sort', sorted ? (state.sort.ascending ? 'ascending' : 'descending') : 'none');
    if (partial() && !resort) {
      th.title = `${column.type} · sorting needs all the rows, and only the first are here`;
      return th;
    }
    th.tabIndex = 0;
    th.addEventListener('click', () => sortBy(column));
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        sortBy(column);
      }
    });
    return th;
  }

  function draw() {
    const head = document.createElement('thead');
    const headRow = document.createElement('tr');
    headRow.append(...columns.map(header));
    head.append(headRow);
    const body = document.createElement('tbody');
    for (const row of state.rows.slice(state.page * PAGE_SIZE, (state.page + 1) * PAGE_SIZE)) {
      const tr = document.createElement('tr');
      for (const column of columns) {
        const td = document.createElement('td');
        td.textContent = format(row[column.index]);
        tr.append(td);
      }
      body.append(tr);
    }
    table.replaceChildren(head, body);
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
    footer.replaceChildren(rowCount, previous, where, next);
    if (partial()) footer.append(partialNote(shown, state.sort));
    if (state.status) {
      const status = document.createElement('span');
      status.className = `table-status${state.failed ? ' error' : ''}`;
      status.setAttribute('role', 'status');
      status.textContent = state.status;
      footer.append(status);
    }
  }

  draw();
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
