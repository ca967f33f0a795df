// Scheduled questions: "Schedule…" on a stored result or a board's tile opens a dialog (every hour, day or week, at a time, in this
// browser's time zone; an optional webhook, whose signing secret is shown once); the sidebar's "Scheduled questions"
// lists them with pause and delete; each run's outcome ("3 rows added, total 1,204 → 1,377", or why it failed) shows
// above the conversation as it arrives.
import { api } from './api.js';
import { elements } from './elements.js';

let $;
/** What the dialog schedules: {result_id} or {tile_id}; null when it only lists. */
let target = null;
/** Told of each schedule made (the board page shows it on its tile). */
let onMade = () => {};
/** What the dialog was opened from, to return focus to. */
let opener = null;

/** The browser's IANA zone, as the server checks it. */
function zone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** {made}: called with each schedule made here. */
export function initSchedules({ made } = {}) {
  if (made) onMade = made;
  $ = elements(['open-schedules', 'schedule-modal', 'schedule-close', 'schedule-form', 'schedule-every',
    'schedule-weekday', 'schedule-weekday-label', 'schedule-at', 'schedule-webhook', 'schedule-zone',
    'schedule-error', 'schedule-secret', 'schedule-secret-text', 'schedule-list', 'schedules-empty', 'notifications']);
  $('open-schedules').addEventListener('click', (e) => open(null, e.currentTarget));
  $('schedule-close').addEventListener('click', () => $('schedule-modal').close());
  $('schedule-modal').addEventListener('close', () => {
    // The secret leaves the page with the dialog.
    $('schedule-secret-text').value = '';
    $('schedule-secret').hidden = true;
    opener?.focus();
  });
  $('schedule-every').addEventListener('change', weekly);
  $('schedule-form').addEventListener('submit', (e) => {
    e.preventDefault();
    create();
  });
}

/** The "Schedule…" action of a stored result, or with {tile_id} of a board's tile (named by {label}). */
export function scheduleButton(id, { tileId = null, label = null } = {}) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Schedule…';
  button.title = 'Run this SQL again every hour, day or week and be told what changed';
  if (label) button.setAttribute('aria-label', `Schedule ${label}`);
  button.setAttribute('aria-haspopup', 'dialog');
  button.addEventListener('click', () => open(tileId ? { tile_id: tileId } : { result_id: id }, button));
  return button;
}

function weekly() {
  const isWeekly = $('schedule-every').value === 'weekly';
  $('schedule-weekday').hidden = !isWeekly;
  $('schedule-weekday-label').hidden = !isWeekly;
}

async function open(what, from) {
  target = what;
  opener = from;
  $('schedule-form').hidden = !what;
  $('schedule-error').textContent = '';
  $('schedule-zone').textContent = `Times are in ${zone()}.`;
  weekly();
  $('schedule-modal').showModal();
  (what ? $('schedule-every') : $('schedule-close')).focus();
  await list();
}

async function create() {
  $('schedule-error').textContent = '';
  try {
    const made = await api.createSchedule({
      ...target,
      every: $('schedule-every').value,
      at: $('schedule-at').value,
      weekday: $('schedule-every').value === 'weekly' ? $('schedule-weekday').value : null,
      time_zone: zone(),
      webhook_url: $('schedule-webhook').value.trim() || null,
    });
    $('schedule-webhook').value = '';
    onMade(made);
    if (made.webhook_secret) {
      $('schedule-secret-text').value = made.webhook_secret;
      $('schedule-secret').hidden = false;
    }
    await list();
  } catch (e) {
    $('schedule-error').textContent = e.message;
  }
}

/** A schedule's cadence as a person says it: "Daily at 09:00 (Europe/Paris)". */
export function when(s) {
  const day = s.every === 'weekly' ? ` on ${s.weekday[0].toUpperCase()}${s.weekday.slice(1)}` : '';
  const at = s.every === 'hourly' ? `at :${s.at.slice(3)}` : `at ${s.at}`;
  return `${s.every[0].toUpperCase()}${s.every.slice(1)}${day} ${at} (${s.time_zone})`;
}

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

function row(s) {
  const tr = document.createElement('tr');
  const sql = cell(s.sql.length > 80 ? `${s.sql.slice(0, 80)}…` : s.sql);
  sql.title = s.sql;
  tr.append(sql, cell(when(s)), cell(s.paused ? 'Paused' : new Date(s.next_run_at).toLocaleString()),
    cell(s.webhook_url ? 'Yes' : 'No'));
  const actions = document.createElement('td');
  const pause = document.createElement('button');
  pause.type = 'button';
  pause.textContent = s.paused ? 'Resume' : 'Pause';
  pause.addEventListener('click', () => act(() => api.pauseSchedule(s.id, !s.paused)));
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = 'Delete';
  remove.setAttribute('aria-label', `Delete the schedule of ${s.sql}`);
  remove.addEventListener('click', () => act(() => api.deleteSchedule(s.id)));
  actions.append(pause, ' ', remove);
  tr.append(actions);
  return tr;
}

async function act(change) {
  $('schedule-error').textContent = '';
  try {
    await change();
    await list();
  } catch (e) {
    $('schedule-error').textContent = e.message;
  }
}

async function list() {
  try {
    const { schedules } = await api.schedules();
    $('schedule-list').replaceChildren(...schedules.map(row));
    $('schedules-empty').hidden = schedules.length > 0;
  } catch (e) {
    $('schedule-error').textContent = e.message;
  }
}

/** A run's outcome, above the conversation, until dismissed. */
export function notifyRun(event) {
  const note = document.createElement('div');
  note.className = `notification ${event.status === 'failed' ? 'failed' : 'ok'}`;
  const text = document.createElement('p');
  text.textContent = event.status === 'failed'
    ? `Scheduled question failed: ${event.reason}`
    : `Scheduled question: ${event.summary}`;
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.textContent = 'Dismiss';
  dismiss.addEventListener('click', () => {
    note.remove();
    $('notifications').hidden = $('notifications').childElementCount === 0;
  });
  note.append(text, dismiss);
  $('notifications').append(note);
  $('notifications').hidden = false;
}
