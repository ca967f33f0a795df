// A result table's own actions on the rows it holds, raw values in the table's order: "Copy this page (10 rows)" and
// "Copy all 20 rows" copy the page shown or every row held as tab-separated text (one "Copy 3 rows" when there is one
// page), "Save table rows (CSV)" saves them as CSV. Named apart from the result's "Download CSV" (result-export.js),
// which gives every row of the result however many the table holds.
import { count } from './format.js';
import { toCsv, toTsv } from './raw-copy.js';
import { copyButton, saveFile } from './save-file.js';
import { sortedBy } from './table-sort.js';

/**
 * @param table {columns: those shown, rows: () => the rows held in the table's order, pageRows: () => those of the
 *              page shown, partial: whether the rows held are only the first of the result's, totalRows: the result's,
 *              sort: () => {column, ascending} or null}
 * @param saved (text) => void: told what "Save table rows (CSV)" saved
 */
export function tableActions(table, saved) {
  const { columns, rows, partial } = table;
  const actions = document.createElement('span');
  actions.className = 'table-actions';
  actions.append(...copyButtons(table));
  const csv = document.createElement('button');
  csv.type = 'button';
  csv.textContent = 'Save table rows (CSV)';
  csv.addEventListener('click', () => {
    saveFile(new Blob([toCsv(columns, rows())], { type: 'text/csv' }), 'result.csv');
    saved(savedNote(table));
  });
  csv.title = partial ? `Only the ${rows().length.toLocaleString()} rows this table holds; "Download CSV" `
    + 'gives every row' : 'The rows of this table, as shown';
  actions.append(csv);
  return actions;
}

/** Copies of the page shown and of every row held, each saying how many rows; one when the page shows every row. */
function copyButtons({ columns, rows, pageRows, partial, totalRows }) {
  const held = rows().length;
  const shown = pageRows().length;
  const title = partial ? `The rows this table holds, of ${count(totalRows, 'row')}; "Download CSV" gives every row`
    : undefined;
  const all = copyButton(`Copy ${held === shown ? '' : 'all '}${count(held, 'row')}${partial ? ' held' : ''}`,
    () => toTsv(columns, rows()), title);
  if (held === shown) return [all];
  return [copyButton(`Copy this page (${count(shown, 'row')})`, () => toTsv(columns, pageRows())), all];
}

/** What "Save table rows (CSV)" saved: the rows this table holds, in its order, which may not be every row. */
function savedNote({ rows, partial, totalRows, sort }) {
  const held = count(rows().length, 'row');
  const order = sortedBy(sort());
  return partial ? `Saved the ${held} this table holds (of ${count(totalRows, 'row')}) as CSV${order};`
    + ' "Download CSV" gives every row.' : `Saved the table's ${held} as CSV${order}.`;
}
