// One tile of a board: its title, the chart or table drawn from the tile's own stored copy (nothing runs to open
// it), its SQL (collapsed), its files with the versions they had when it ran, when it ran; Re-run and Remove. A tile
// whose files have newer versions says so, "stale — re-run?", a button that re-runs it; one that cannot run again
// (its conversation or a dataset is gone) keeps its data and says why. "Schedule…" runs it again on a schedule; a
// scheduled tile says when, and what its last run found ("3 rows added, total 1,204 → 1,377") or why it failed.
// Without actions (a board's share link), a tile is read-only: no move handle, Re-run, Schedule, Remove or stale badge.
import { renderChart } from './chart.js';
import { renderTable } from './table.js';
import { scheduleButton, when as cadence } from './schedules.js';

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

/** The tile's schedule and its last run's outcome, or nothing when it has none. */
function scheduled(s) {
  if (!s) return '';
  const last = s.last_run;
  let outcome = 'not run yet';
  if (last) {
    const at = when(last.finished_at || last.due_at);
    outcome = last.status === 'failed' ? `last run ${at} failed: ${last.reason}` : `last run ${at}: ${last.summary}`;
  }
  return `Scheduled ${cadence(s).toLowerCase()}${s.paused ? ' (paused)' : ''} · ${outcome}`;
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
  const plan = el('p', { className: 'tile-schedule', textContent: actions ? scheduled(tile.schedule) : '' });
  li.append(head, note, holder, sql, ...(actions ? [plan] : []), meta, actions ? buttons(tile, actions) : '');
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
  li.showSchedule = (s) => { plan.textContent = scheduled(s); };
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
  const schedule = scheduleButton(null, { tileId: tile.id, label: tile.title });
  return el('div', { className: 'tile-actions' }, rerun, schedule, remove);
}
