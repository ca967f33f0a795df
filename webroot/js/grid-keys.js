// A table as one tab stop: Tab reaches it once (its header row), and the arrow keys, Home and End move between its
// cells. The cell that has the tab stop is the one Tab returns to (a roving tabindex).

function cellAt(table, row, column) {
  const tr = table.rows[row];
  return tr ? tr.cells[Math.max(0, Math.min(column, tr.cells.length - 1))] || null : null;
}

const MOVES = {
  ArrowRight: (r, c) => [r, c + 1],
  ArrowLeft: (r, c) => [r, c - 1],
  ArrowDown: (r, c) => [r + 1, c],
  ArrowUp: (r, c) => [r - 1, c],
  Home: (r) => [r, 0],
  End: (r) => [r, Number.MAX_SAFE_INTEGER],
};

/** Gives the tab stop to {@code cell}, and focus when asked. */
export function giveTabStop(table, cell, focus) {
  table.querySelectorAll('[tabindex="0"]').forEach((el) => { el.tabIndex = -1; });
  cell.tabIndex = 0;
  if (focus) cell.focus();
}

/** Every cell focusable by script, none by Tab but {@code stop}. */
export function makeRoving(table, stop) {
  for (const tr of table.rows) {
    for (const cell of tr.cells) cell.tabIndex = -1;
  }
  if (stop) stop.tabIndex = 0;
}

/** Listens once per table: the arrows move focus from cell to cell, never past the table's edges. */
export function gridKeys(table) {
  table.addEventListener('keydown', (e) => {
    const move = MOVES[e.key];
    const cell = e.target.closest?.('th, td');
    if (!move || !cell || !table.contains(cell) || e.altKey || e.ctrlKey || e.metaKey) return;
    const [row, column] = move(cell.parentElement.rowIndex, cell.cellIndex);
    e.preventDefault();
    if (column < 0) return;
    const next = cellAt(table, row, column);
    if (next && next !== cell) giveTabStop(table, next, true);
  });
}
