// Moving a board's tiles: by drag and drop, or from a tile's move handle with the arrow keys, Home and End. Each move
// is said to screen readers and kept (the whole new order in one request), so a reload shows the tiles as left.

/**
 * @param list     the tiles' list element
 * @param persist  (ids) => Promise: keeps the new order
 * @param announce (text) => void
 */
export function reorderable(list, persist, announce) {
  let dragged = null;
  const tiles = () => [...list.children];
  /** Said once kept, so that what a screen reader hears is what a reload shows. */
  const moved = async (li) => {
    const all = tiles();
    const said = `Moved ${li.dataset.title} to position ${all.indexOf(li) + 1} of ${all.length}`;
    try {
      await persist(all.map((t) => t.dataset.tileId));
      announce(said);
    } catch (e) {
      announce(`The new order was not kept: ${e.message}`);
    }
  };
  const place = (li, index) => {
    const others = tiles().filter((t) => t !== li);
    const target = Math.max(0, Math.min(index, others.length));
    list.insertBefore(li, others[target] || null);
  };

  list.addEventListener('dragstart', (e) => {
    dragged = e.target.closest?.('.tile');
    if (!dragged) return;
    dragged.classList.add('dragging');
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', dragged.dataset.tileId);
  });
  list.addEventListener('dragover', (e) => {
    if (!dragged) return;
    e.preventDefault();
    tiles().forEach((t) => t.classList.toggle('drop-target', t === e.target.closest('.tile') && t !== dragged));
  });
  list.addEventListener('drop', (e) => {
    const target = e.target.closest('.tile');
    if (!dragged || !target || target === dragged) return;
    e.preventDefault();
    const all = tiles();
    const after = all.indexOf(dragged) < all.indexOf(target);
    list.insertBefore(dragged, after ? target.nextSibling : target);
    moved(dragged);
  });
  list.addEventListener('dragend', () => {
    dragged?.classList.remove('dragging');
    tiles().forEach((t) => t.classList.remove('drop-target'));
    dragged = null;
  });

  /** The move handle's keys; the handle keeps the focus as its tile moves. */
  return (li, e) => {
    const index = tiles().indexOf(li);
    const last = tiles().length - 1;
    const to = { ArrowLeft: index - 1, ArrowUp: index - 1, ArrowRight: index + 1, ArrowDown: index + 1, Home: 0,
      End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    if (to < 0 || to > last || to === index) return;
    const handle = e.target;
    place(li, to);
    handle.focus();
    moved(li);
  };
}
