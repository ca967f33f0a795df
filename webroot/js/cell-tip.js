// The full value of a table cell too long to show, beside it while the cell is hovered or focused (a value longer
// than a tip can hold says how to read the rest: click the cell). One tip for the page, placed with fixed coordinates
// so that no scrolling box clips it. It is for the eyes only: a screen reader reads the cell's whole text already.
const GAP = 4;
/** Characters a tip shows at most; a longer value is read whole in its cell, expanded by a click or Enter. */
export const TIP_CHARS = 1_200;
let tip = null;
let owner = null;

function element() {
  if (!tip) {
    tip = document.createElement('div');
    tip.id = 'cell-tip';
    tip.className = 'cell-tip';
    tip.setAttribute('aria-hidden', 'true');
    tip.hidden = true;
    // Inside the main landmark, where every table is.
    (document.querySelector('main') || document.body).append(tip);
  }
  return tip;
}

function shortened(text) {
  if (text.length <= TIP_CHARS) return text;
  const rest = text.length.toLocaleString();
  return `${text.slice(0, TIP_CHARS)}…\n\n(${rest} characters: click the cell or press Enter to read it all)`;
}

/** Shows {@code text} under {@code cell} (above it when there is no room below). */
export function showTip(cell, text) {
  const el = element();
  el.textContent = shortened(text);
  el.hidden = false;
  owner = cell;
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
  owner = null;
}
