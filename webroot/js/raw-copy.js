// A result's raw values, whatever its table shows: what a copy of its cells gives (Ctrl+C on a focused cell or on a
// selection), its "Copy rows" and its CSV.
import { rawText } from './format.js';

/** Table element → () => {columns, rows} of what it shows (all its stored rows, in its current order). */
const sources = new WeakMap();

export function registerRaw(table, source) {
  sources.set(table, source);
}

function tsvField(value) {
  return rawText(value).replace(/[\t\n\r]/g, ' ');
}

function csvField(value) {
  const text = rawText(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toTsv(columns, rows) {
  return [columns.map((c) => c.name), ...rows.map((row) => columns.map((c) => row[c.index]))]
    .map((line) => line.map(tsvField).join('\t')).join('\n');
}

export function toCsv(columns, rows) {
  return [columns.map((c) => c.name), ...rows.map((row) => columns.map((c) => row[c.index]))]
    .map((line) => line.map(csvField).join(',')).join('\r\n');
}

/** The raw value of one rendered body cell, as its row and column say. */
function cellValue(td) {
  const table = td.closest('table');
  const source = sources.get(table);
  if (!source || td.tagName !== 'TD') return null;
  const { columns, rowAt } = source();
  const row = rowAt(td.parentElement.sectionRowIndex);
  const column = columns[td.cellIndex];
  return row && column ? row[column.index] : null;
}

/** What a copy inside a result table gives: the raw values of the cells selected, or of the cell focused. */
function copied() {
  const selection = document.getSelection();
  if (selection && !selection.isCollapsed) {
    const table = selection.anchorNode?.parentElement?.closest('table');
    if (!table || !sources.has(table)) return null;
    const lines = [...table.tBodies[0].rows].map((tr) => [...tr.cells].filter((td) => selection.containsNode(td, true)))
      .filter((cells) => cells.length).map((cells) => cells.map((td) => tsvField(cellValue(td))).join('\t'));
    return lines.length ? lines.join('\n') : null;
  }
  const focused = document.activeElement;
  return focused?.tagName === 'TD' && sources.has(focused.closest('table')) ? rawText(cellValue(focused)) : null;
}

document.addEventListener('copy', (e) => {
  const text = copied();
  if (text === null) return;
  e.clipboardData.setData('text/plain', text);
  e.preventDefault();
});
