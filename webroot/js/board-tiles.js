// One tile of a board: its title, the chart or table drawn from the tile's own stored copy (nothing runs to open
// it), its SQL (collapsed), its files with the versions they had when it ran, when it ran; Re-run and Remove. A tile
// whose files have newer versions says so, "stale — re-run?", a button that re-runs it; one that cannot run again
// (its conversation or a dataset is gone) keeps its data and says why. Without actions (a board's share link), a
// tile is read-only: no move handle, Re-run, Remove or stale badge.
import { renderChart } from './chart.js';
import { renderTable } from './table.js';

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  Object.entries(props).forEach(([k, v]) => {
    if (k.includes('-') || k === 'role') e.setAttribute(k, v); else e[k] = v;
  });
  e.append(...children);
  return e;
}

/** A file's version as its server gave it: its ETag, else its size, else when it was last modified. */
function version(source) {
  if (source.etag) return `version ${source.etag}`;
  if (source.size != null) return `${Number(source.size).toLocaleString()} bytes`;
  return source.last_modified ? `modified ${source.last_modified}` : 'version unknown';
}

function when(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

async function draw(holder, tile) {
  if (tile.kind === 'chart' && tile.chart) {
    try {
      await renderChart(holder, tile.chart.spec, tile.chart);
    } catch (e) {
      holder.textContent = `Chart unavailable: ${e.message}`;
    }
  } else {
    renderTable(holder, { columns: tile.columns, rows: tile.rows, total_rows: tile.total_rows,
      truncated: tile.truncated, note: null });
  }
}

/**
 * @param actions {run: (tile, button) => void, remove: (tile, button) => void, moveKey: (li, event) => void}, or
 *                null for a read-only tile
 */
export function tileElement(tile, actions = null) {
  const li = el('li', { className: 'tile', draggable: Boolean(actions) });
  li.dataset.tileId = tile.id;
  li.dataset.title = tile.title;
  const heading = el('h2', { textContent: tile.title });
  const badge = el('span', { className: 'tile-badge' });
  const head = el('div', { className: 'tile-head' }, actions ? moveHandle(li, tile, actions) : '', heading, badge);
  const note = el('p', { className: 'tile-note', role: 'status' });
  const holder = el('div', { className: 'tile-body' });
  const sql = el('details', { className: 'tile-sql' }, el('summary', { textContent: 'SQL' }),
    el('pre', { textContent: tile.sql }));
  const files = el('ul', {}, ...(tile.sources || []).map((s) => el('li', {
    textContent: `${s.table}: ${s.url} (${version(s)})` })));
  const meta = el('div', { className: 'tile-meta' }, el('p', { className: 'tile-ran',
    textContent: `Ran ${when(tile.ran_at)} · ${Number(tile.total_rows).toLocaleString()} rows` }),
  (tile.sources || []).length ? files : '');
  li.append(head, note, holder, sql, meta, actions ? buttons(tile, actions) : '');
  draw(holder, tile);
  li.markStale = (stale) => {
    badge.replaceChildren();
    if (!stale || !actions) return;
    const button = el('button', { type: 'button', className: 'stale-badge', textContent: 'stale — re-run?',
      title: 'A file this tile read has a newer version: re-run it on the data as it is now' });
    button.addEventListener('click', () => actions.run(tile, button));
    badge.append(button);
  };
  li.say = (text) => { note.textContent = text || ''; };
  // As its conversation's datasets record their files now; opening the board then asks their servers.
  li.markStale(Boolean(tile.stale));
  return li;
}

function moveHandle(li, tile, actions) {
  const move = el('button', { type: 'button', className: 'tile-move', textContent: '⠿',
    'aria-label': `Move ${tile.title}`, title: 'Drag the tile, or press the arrow keys, Home or End, to move it' });
  move.addEventListener('keydown', (e) => actions.moveKey(li, e));
  return move;
}

function buttons(tile, actions) {
  const rerun = el('button', { type: 'button', textContent: 'Re-run', 'aria-label': `Re-run ${tile.title}` });
  rerun.addEventListener('click', () => actions.run(tile, rerun));
  const remove = el('button', { type: 'button', textContent: 'Remove', 'aria-label': `Remove ${tile.title}` });
  remove.addEventListener('click', () => actions.remove(tile, remove));
  return el('div', { className: 'tile-actions' }, rerun, remove);
}
