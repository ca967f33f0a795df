// The full value of a table cell too long to show, beside it while the cell is hovered or focused. One tip for the
// page, placed with fixed coordinates so that no scrolling box clips it.
const GAP = 4;
let tip = null;
let owner = null;

function element() {
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'cell-tip';
    tip.className = 'cell-tip';
    tip.setAttribute('role', 'tooltip');
    tip.hidden = true;
    document.body.append(tip);
  }
  return tip;
}

/** Shows {@code text} under {@code cell} (above it when there is no room below). */
export function showTip(cell, text) {
  const el = element();
  el.textContent = text;
  el.hidden = false;
  owner = cell;
  cell.setAttribute('aria-describedby', el.id);
  const box = cell.getBoundingClientRect();
  const width = Math.min(el.offsetWidth, window.innerWidth - 2 * GAP);
  el.style.left = `${Math.max(GAP, Math.min(box.left, window.innerWidth - width - GAP))}px`;
  const below = box.bottom + GAP;
  const fits = below + el.offsetHeight <= window.innerHeight - GAP;
  el.style.top = `${fits ? below : Math.max(GAP, box.top - GAP - el.offsetHeight)}px`;
}

/** Hides the tip if {@code cell} (or, with none, anything) is what it shows. */
export function hideTip(cell) {
  if (!tip || (cell && owner !== cell)) return;
  tip.hidden = true;
  owner?.removeAttribute('aria-describedby');
  owner = null;
}
