// The read-only page of a share link (/s/<token>): the messages, SQL, tables and charts as they were when shared,
// drawn from /api/s/<token> with the page's own table, chart and markdown modules. Nothing here can ask, query or
// open anything else: it reads that one JSON, and its downloads are the stored rows of the results it shows. A
// board's link draws its tiles with the board page's own tile module, read-only, as they are when it is opened.
import { renderMarkdown } from './markdown.js';
import { tileElement } from './board-tiles.js';
import { renderTable } from './table.js';
import { renderChart } from './chart.js';

const token = decodeURIComponent(window.location.pathname.split('/')[2] || '');
const base = `/api/s/${encodeURIComponent(token)}`;
const $ = (id) => document.getElementById(id);

async function load() {
  const response = await fetch(base, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    failed(response.status, body.error);
    return;
  }
  show(body);
}

/** A link that opens nothing says so; one for signed-in users offers to sign in, which comes back here. */
function failed(status, error) {
  $('shared-title').textContent = status === 401 ? 'Sign in to see this' : 'Link not found';
  document.title = `${$('shared-title').textContent} · Quarry`;
  const text = $('shared-status');
  text.textContent = error || 'This link does not exist or no longer works';
  if (status === 401) {
    const link = document.createElement('a');
    link.href = `/?back=${encodeURIComponent(window.location.pathname)}`;
    link.textContent = 'Sign in to see it';
    text.append(' ', link);
  }
}

function show(share) {
  if (share.kind === 'board') {
    showBoard(share);
    return;
  }
  $('shared-title').textContent = share.title || 'Shared answer';
  document.title = `${share.title || 'Shared answer'} · Quarry`;
  const when = new Date(share.shared_at).toLocaleString();
  $('shared-by').textContent = `Shared by ${share.display_name} on ${when} · read-only, as it was then`;
  $('shared-status').textContent = '';
  const results = new Map(share.results.map((r) => [r.id, r]));
  for (const message of share.messages) {
    $('shared-messages').append(message.role === 'user' ? question(message) : answer(message, results));
  }
  datasets(share.datasets);
}

/** Its tiles as they are now, each saying when it ran, with downloads of its stored rows; nothing to change. */
function showBoard(share) {
  $('shared-title').textContent = share.title;
  document.title = `${share.title} · Quarry`;
  const when = new Date(share.shared_at).toLocaleString();
  $('shared-by').textContent = `Board shared by ${share.display_name} on ${when} · read-only, each tile as it last ran`;
  $('shared-status').textContent = share.tiles.length ? '' : 'This board has no tiles.';
  const list = $('shared-tiles');
  list.hidden = false;
  for (const tile of share.tiles) {
    const li = tileElement(tile);
    li.append(downloads(`${base}/tiles/${encodeURIComponent(tile.id)}`, 'tile', tile.rows.length));
    list.append(li);
  }
}

function question(message) {
  const div = document.createElement('div');
  div.className = 'message user';
  div.textContent = message.content;
  return div;
}

function answer(message, results) {
  const div = document.createElement('article');
  div.className = 'message assistant';
  div.setAttribute('aria-label', 'Answer');
  const content = document.createElement('div');
  content.className = 'content';
  content.append(renderMarkdown(message.content));
  div.append(content);
  if (message.notice) {
    const notice = document.createElement('p');
    notice.className = 'muted';
    notice.textContent = message.notice;
    div.append(notice);
  }
  const charted = new Map();
  for (const chart of message.charts || []) {
    if (chart.kind !== 'table' && chart.data) charted.set(chart.result_id, chart);
  }
  const ids = message.result_ids || [];
  for (const id of ids) {
    const result = results.get(id);
    if (result) div.append(resultBlock(result, charted.get(id)));
  }
  // A chart of an earlier answer's result ("show that as a bar chart") is drawn from what it drew then.
  for (const [id, chart] of charted) {
    if (!ids.includes(id)) div.append(chartBlock(chart));
  }
  return div;
}

/** Its SQL (to read, not to run), its stored rows, its chart as drawn then, and downloads of those rows. */
function resultBlock(result, chart) {
  const block = document.createElement('div');
  block.className = 'artifact';
  const details = document.createElement('details');
  details.className = 'sql-panel';
  const summary = document.createElement('summary');
  summary.textContent = 'Show SQL';
  const code = document.createElement('pre');
  code.className = 'shared-sql';
  code.textContent = result.sql;
  details.append(summary, code);
  const holder = document.createElement('div');
  block.append(details, holder);
  renderTable(holder, result, {});
  block.append(downloads(`${base}/results/${encodeURIComponent(result.id)}`, 'result', result.rows.length));
  if (chart) block.append(chartBlock(chart));
  return block;
}

function chartBlock(chart) {
  const drawing = document.createElement('div');
  renderChart(drawing, chart.spec, chart.data).catch((e) => {
    drawing.textContent = `Chart unavailable: ${e.message}`;
  });
  return drawing;
}

function downloads(path, name, rows) {
  const span = document.createElement('span');
  span.className = 'shared-downloads';
  for (const format of ['csv', 'json']) {
    const link = document.createElement('a');
    link.href = `${path}?format=${format}`;
    link.download = `${name}.${format}`;
    link.textContent = `Download ${format.toUpperCase()} (${rows.toLocaleString()} rows)`;
    span.append(link);
  }
  return span;
}

function datasets(list) {
  if (!list.length) return;
  $('shared-datasets').hidden = false;
  for (const d of list) {
    const li = document.createElement('li');
    const version = [d.row_count != null ? `${d.row_count.toLocaleString()} rows` : null,
      d.file_size != null ? `${d.file_size.toLocaleString()} bytes` : null, d.etag ? `version ${d.etag}` : null,
      d.updated_at ? `read ${new Date(d.updated_at).toLocaleString()}` : null].filter(Boolean).join(', ');
    li.textContent = `${d.name}: ${d.url}${version ? ` (${version})` : ''}`;
    $('shared-dataset-list').append(li);
  }
}

window.addEventListener('DOMContentLoaded', () => {
  load().catch((e) => failed(0, `Could not load this link: ${e.message}`));
});
