// A result table's header row: each column's name, type (its title) and sort (an arrow, and aria-sort). When the
// table can be sorted, a click on a header cell, or Enter or Space on it, sorts by its column.

/**
 * @param formats  the columns' formats (format.js), in the columns' order
 * @param sort     the table's sort ({index, ascending}), or null in the result's own order
 * @param sortable whether the table can be sorted: not when it holds only the first rows and cannot re-run its query
 * @param onSort   (column) => void
 */
export function tableHead(columns, { formats, sort, sortable, onSort }) {
  const row = document.createElement('tr');
  row.append(...columns.map((column, position) => {
    const th = document.createElement('th');
    th.scope = 'col';
    th.title = column.type;
    if (formats[position].numeric) th.classList.add('num');
    const sorted = sort?.index === column.index;
    const label = document.createElement('div');
    label.className = 'cell';
    label.textContent = column.name + (sorted ? (sort.ascending ? ' ▲' : ' ▼') : '');
    th.append(label);
    th.setAttribute('aria-sort', sorted ? (sort.ascending ? 'ascending' : 'descending') : 'none');
    if (!sortable) {
      th.title = `${column.type} · sorting needs all the rows, and only the first are here`;
      return th;
    }
    th.classList.add('sortable');
    th.addEventListener('click', () => onSort(column));
    return th;
  }));
  const head = document.createElement('thead');
  head.append(row);
  return head;
}

/**
 * Listens once per table: Enter or Space on a header cell sorts by its column, when the table can be sorted.
 * @param sortable () => whether the table can be sorted now
 * @param onSort   (position) => void: sorts by the column at that position among those shown
 */
export function headKeys(table, sortable, onSort) {
  table.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const th = e.target.closest('th');
    if (!th || !sortable()) return;
    e.preventDefault();
    onSort(th.cellIndex);
  });
}
