// A result table's rows, one page of them, each value in its column's format (format.js). A long value is cut with an
// ellipsis, shown whole beside its cell on hover or focus (cell-tip.js), and in the cell when clicked or on Enter; a
// rounded number shows its full value beside its cell on hover or focus.
import { rawText } from './format.js';
import { showTip, hideTip } from './cell-tip.js';

/** @param formats the columns' formats, in the columns' order */
export function tableBody(rows, columns, formats) {
  const body = document.createElement('tbody');
  for (const row of rows) {
    const tr = document.createElement('tr');
    tr.append(...columns.map((column, position) => cell(row[column.index], formats[position])));
    body.append(tr);
  }
  return body;
}

function cell(value, format) {
  const td = document.createElement('td');
  const shown = document.createElement('div');
  shown.className = 'cell';
  if (value === null || value === undefined) {
    shown.textContent = '∅';
    td.classList.add('null');
  } else {
    shown.textContent = format.text(value);
    if (format.numeric) td.classList.add('num');
    const full = format.full?.(value);
    if (full !== undefined && full !== shown.textContent) {
      td.classList.add('rounded');
      td.dataset.full = full;
    }
  }
  td.append(shown);
  return td;
}

/** Marks the cells whose value does not fit: those have their full value on hover, focus and click. */
export function markClipped(table) {
  for (const shown of table.querySelectorAll('td > .cell')) {
    shown.parentElement.classList.toggle('clipped', shown.scrollWidth > shown.clientWidth + 1);
  }
}

/**
 * Listens once per table: a clipped cell's value, or a rounded number's, shows whole in a tip on hover or focus, and a
 * clipped one in the cell when clicked or on Enter (which cuts it again).
 * @param valueOf (td) => the raw value of a body cell
 */
export function clippedCells(table, valueOf) {
  table.addEventListener('click', (e) => toggleCell(e.target.closest('td')));
  table.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && toggleCell(e.target.closest('td'))) e.preventDefault();
  });
  table.addEventListener('focusin', (e) => tipFor(e.target.closest('td'), valueOf));
  table.addEventListener('focusout', (e) => hideTip(e.target.closest('td')));
  table.addEventListener('mouseover', (e) => tipFor(e.target.closest('td'), valueOf));
  table.addEventListener('mouseout', (e) => {
    const td = e.target.closest('td');
    if (td && !td.contains(e.relatedTarget) && document.activeElement !== td) hideTip(td);
  });
}

/** @return whether the cell was one to show whole or cut again */
function toggleCell(td) {
  if (!td || !(td.classList.contains('clipped') || td.classList.contains('expanded'))) return false;
  const expanded = td.classList.toggle('expanded');
  td.classList.toggle('clipped', !expanded);
  hideTip(td);
  return true;
}

function tipFor(td, valueOf) {
  if (td?.classList.contains('rounded')) showTip(td, td.dataset.full);
  else if (td?.classList.contains('clipped')) showTip(td, rawText(valueOf(td)));
}
