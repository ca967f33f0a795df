// A result table's own actions on the rows it holds, raw values in the table's order: "Copy rows" copies them as
// tab-separated text, "Save table rows (CSV)" saves them as CSV. Named apart from the result's "Download CSV"
// (result-export.js), which gives every row of the result however many the table holds.
import { count } from './format.js';
import { toCsv, toTsv } from './raw-copy.js';
import { copyButton, saveFile } from './save-file.js';
import { sortedBy } from './table-sort.js';

/**
 * @param table {columns: those shown, rows: () => the rows held in the table's order, partial: whether those are
 *              only the first of the result's, totalRows: the result's, sort: () => {column, ascending} or null}
 * @param saved (text) => void: told what "Save table rows (CSV)" saved
 */
export function tableActions(table, saved) {
  const { columns, rows, partial } = table;
  const actions = document.createElement('span');
  actions.className = 'table-actions';
  const copy = copyButton('Copy rows', () => toTsv(columns, rows()));
  const csv = document.createElement('button');
  csv.type = 'button';
  csv.textContent = 'Save table rows (CSV)';
  csv.addEventListener('click', () => {
    saveFile(new Blob([toCsv(columns, rows())], { type: 'text/csv' }), 'result.csv');
    saved(savedNote(table));
  });
  csv.title = partial ? `Only the ${rows().length.toLocaleString()} rows this table holds; "Download CSV" `
    + 'gives every row' : 'The rows of this table, as shown';
  actions.append(copy, csv);
  return actions;
}

/** What "Save table rows (CSV)" saved: the rows this table holds, in its order, which may not be every row. */
function savedNote({ rows, partial, totalRows, sort }) {
  const held = count(rows().length, 'row');
  const order = sortedBy(sort());
  return partial ? `Saved the ${held} this table holds (of ${count(totalRows, 'row')}) as CSV${order};`
    + ' "Download CSV" gives every row.' : `Saved the table's ${held} as CSV${order}.`;
}
