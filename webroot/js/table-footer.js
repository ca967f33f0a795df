// A result table's footer: the row count (and how long the query took), the pager, the actions on the table's rows,
// then what the table must say: that it holds only the first rows of its result, and how a sort went.
import { count } from './format.js';

/**
 * @param table   {shown: the result shown, page, pages, sort, status, failed: whether status is an error, partial:
 *                whether the stored rows are only the first of the result's}
 * @param onPage  (step) => void: shows the page before (-1) or after (+1)
 * @param actions the actions on the table's rows (table-actions.js)
 * @return the footer's elements, in order
 */
export function footerParts({ shown, page, pages, sort, status, failed, partial }, { onPage, actions }) {
  const rowCount = document.createElement('span');
  rowCount.className = 'row-count';
  rowCount.textContent = count(shown.total_rows, 'row')
    + (shown.execution_time_ms !== undefined ? ` · ${shown.execution_time_ms} ms` : '');
  const where = document.createElement('span');
  where.className = 'page-number';
  where.textContent = `Page ${page + 1} of ${pages}`;
  const parts = [rowCount, button('‹ Previous', page === 0, () => onPage(-1)), where,
    button('Next ›', page >= pages - 1, () => onPage(1)), actions];
  if (partial) parts.push(partialNote(shown, sort));
  if (status) parts.push(statusLine(status, failed));
  return parts;
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

function statusLine(text, failed) {
  const status = document.createElement('span');
  status.className = `table-status${failed ? ' error' : ''}`;
  status.setAttribute('role', 'status');
  status.textContent = text;
  return status;
}

function button(label, disabled, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}
