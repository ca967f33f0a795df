// A result table: sortable by any column, paginated, with the row count, a truncation notice and the result's note.
const PAGE_SIZE = 10;

function format(value) {
  if (value === null || value === undefined) {
    return '∅';
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

export function renderTable(container, result, visibleColumns) {
  const columns = result.columns
    .map((c, index) => ({ ...c, index }))
    .filter((c) => !visibleColumns || visibleColumns.includes(c.name));
  let rows = result.rows.slice();
  let page = 0;
  let sort = null;
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

  function draw() {
    const head = document.createElement('thead');
    const headRow = document.createElement('tr');
    for (const column of columns) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.tabIndex = 0;
      th.title = column.type;
      th.textContent = column.name + (sort?.index === column.index ? (sort.ascending ? ' ▲' : ' ▼') : '');
      th.setAttribute('aria-sort', sort?.index === column.index ? (sort.ascending ? 'ascending' : 'descending') : 'none');
      const toggle = () => {
        sort = { index: column.index, ascending: sort?.index === column.index ? !sort.ascending : true };
        rows.sort((a, b) => compare(a[sort.index], b[sort.index]) * (sort.ascending ? 1 : -1));
        page = 0;
        draw();
      };
      th.addEventListener('click', toggle);
      th.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
      headRow.append(th);
    }
    head.append(headRow);
    const body = document.createElement('tbody');
    for (const row of rows.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)) {
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
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    const count = document.createElement('span');
    count.className = 'row-count';
    count.textContent = `${result.total_rows.toLocaleString()} row${result.total_rows === 1 ? '' : 's'}`
      + (result.execution_time_ms !== undefined ? ` · ${result.execution_time_ms} ms` : '');
    const previous = button('‹ Previous', page === 0, () => { page -= 1; draw(); });
    const next = button('Next ›', page >= pages - 1, () => { page += 1; draw(); });
    const where = document.createElement('span');
    where.textContent = `Page ${page + 1} of ${pages}`;
    footer.replaceChildren(count, previous, where, next);
    if (result.truncated) {
      const note = document.createElement('span');
      note.className = 'truncated';
      // Fewer than 1,000 kept means the rows reached a result's size limit first.
      note.textContent = `Showing the first ${result.rows.length.toLocaleString()} rows only`
        + (result.rows.length < 1000 ? ' (a result keeps about 2 MB of rows at most)' : '');
      footer.append(note);
    }
  }

  draw();
}

function button(label, disabled, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}
