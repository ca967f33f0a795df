// The boards pages: /boards lists the user's boards; /b/<id> shows one as a grid of tiles drawn from their stored
// copies (opening it runs nothing), then asks the server, without running any query, whether each tile's files have
// newer versions. Re-run one tile or all of them; remove a tile; move tiles by drag or keyboard; share the board with
// the conversation page's share dialog (a read-only link to its tiles as they are when opened).
import { api } from './api.js';
import { busy } from './keep-focus.js';
import { initTheme } from './theme.js';
import { tileElement } from './board-tiles.js';
import { reorderable } from './board-order.js';
import { initSchedules } from './schedules.js';
import { initBoardShare } from './share.js';

const $ = (id) => document.getElementById(id);
const live = (text) => { $('board-live').textContent = text; };
const message = (text) => { $('board-message').textContent = text; };

async function showBoards() {
  const { boards } = await api.boards();
  const list = $('board-list');
  list.hidden = false;
  message(boards.length ? '' : 'No boards yet: pin a chart or a table of a result to a board to make one.');
  for (const board of boards) {
    const link = document.createElement('a');
    link.href = `/b/${board.id}`;
    link.textContent = board.title;
    const count = document.createElement('span');
    count.className = 'muted';
    count.textContent = `${board.tiles} ${board.tiles === 1 ? 'tile' : 'tiles'}`;
    const li = document.createElement('li');
    li.append(link, count);
    list.append(li);
  }
}

async function showBoard(id) {
  const { board, tiles } = await api.board(id);
  $('board-title').textContent = board.title;
  document.title = `${board.title} · Quarry`;
  const list = $('tiles');
  list.hidden = false;
  message(tiles.length ? '' : 'This board has no tiles yet: pin a chart or a table of a result to it.');
  const moveKey = reorderable(list, (ids) => api.reorderTiles(id, ids), live);
  const actions = {
    moveKey,
    run: (tile, button) => rerun(id, tile, button, actions),
    remove: async (tile, button) => {
      const done = busy(button);
      try {
        await api.unpinTile(id, tile.id);
        list.querySelector(`[data-tile-id="${tile.id}"]`)?.remove();
        live(`Removed ${tile.title}`);
      } catch (e) {
        done();
        live(e.message);
      }
    },
  };
  tiles.forEach((tile) => list.append(tileElement(tile, actions)));
  const all = $('run-all');
  all.hidden = tiles.length === 0;
  all.addEventListener('click', () => rerunAll(id, actions, all));
  await Promise.all([sharing(id), staleness(id)]);
}

/** The Share button, within what this Quarry allows (share.audience, which /api/me tells; none when off). */
async function sharing(id) {
  try {
    const me = await api.me();
    const button = $('share-board');
    initBoardShare(id, me.share_audience, button);
    button.hidden = false;
  } catch {
    // Sharing is a courtesy of the page: the board stands without it.
  }
}

/** Each tile's files asked for newer versions (the server runs no query): a stale tile says so. */
async function staleness(id) {
  try {
    const { tiles } = await api.boardStaleness(id);
    for (const t of tiles) {
      const li = $('tiles').querySelector(`[data-tile-id="${t.tile_id}"]`);
      li?.markStale(t.stale);
      if (t.reason) li?.say(t.reason);
    }
  } catch {
    // Whether files changed is a courtesy: the tiles stand as they are.
  }
  $('tiles').dataset.checked = 'true';
}

function replace(tile, actions) {
  const old = $('tiles').querySelector(`[data-tile-id="${tile.id}"]`);
  const fresh = tileElement(tile, actions);
  old?.replaceWith(fresh);
  return fresh;
}

async function rerun(boardId, tile, button, actions) {
  const done = busy(button);
  const li = $('tiles').querySelector(`[data-tile-id="${tile.id}"]`);
  li?.say('Running…');
  try {
    const ran = await api.runTile(boardId, tile.id);
    const fresh = replace(ran, actions);
    fresh.say(`Re-ran ${when()}`);
    done(fresh.querySelector('.tile-actions button'));
    live(`${ran.title} re-ran: ${Number(ran.total_rows).toLocaleString()} rows`);
  } catch (e) {
    li?.say(e.message);
    live(`${tile.title} did not run: ${e.message}`);
    done();
  }
}

async function rerunAll(boardId, actions, button) {
  const done = busy(button);
  live('Re-running every tile…');
  try {
    const { runs } = await api.runBoard(boardId);
    for (const run of runs) {
      if (run.ok) replace(run.tile, actions).say(`Re-ran ${when()}`);
      else $('tiles').querySelector(`[data-tile-id="${run.tile_id}"]`)?.say(run.error);
    }
    const failed = runs.filter((r) => !r.ok).length;
    live(`Re-ran ${runs.length - failed} of ${runs.length} tiles${failed ? `; ${failed} did not run` : ''}`);
  } catch (e) {
    live(e.message);
  } finally {
    done();
  }
}

function when() {
  return new Date().toLocaleTimeString();
}

/** A schedule just made for a tile: the tile says so at once. */
function scheduleMade(made) {
  if (made.target_kind !== 'tile') return;
  $('tiles').querySelector(`[data-tile-id="${made.target_id}"]`)?.showSchedule({ ...made, last_run: null });
}

async function start() {
  initTheme();
  initSchedules({ made: scheduleMade });
  const id = location.pathname.match(/^\/b\/([^/]+)$/)?.[1];
  try {
    if (id) await showBoard(decodeURIComponent(id));
    else await showBoards();
  } catch (e) {
    message(e.status === 404 ? 'Board not found' : e.status === 401 ? 'Sign in on the main page to see your boards'
      : e.message);
    if (e.status === 404) $('board-title').textContent = 'Board not found';
  }
}

start();
