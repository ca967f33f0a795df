// What a schema refresh changed, in one sentence for the schema modal (a refresh that changed nothing says so too),
// and what a new version of the file changed, briefly, on its card.
import { count } from './format.js';

function columnsByName(d) {
  return new Map((d?.schema || []).map((c) => [c.name, c]));
}

function list(names) {
  return names.join(', ');
}

/** @param before the dataset as shown before the refresh (may be missing), after as the refresh answered */
export function describeRefresh(before, after) {
  if (after.status !== 'ready') return `Refresh failed: ${after.error_message || 'the file could not be read'}.`;
  const old = columnsByName(before);
  const now = columnsByName(after);
  const added = [...now.keys()].filter((n) => !old.has(n));
  const removed = [...old.keys()].filter((n) => !now.has(n));
  const retyped = [...now.values()].filter((c) => old.has(c.name) && old.get(c.name).type !== c.type)
    .map((c) => `${c.name} (${old.get(c.name).friendly_type} → ${c.friendly_type})`);
  const changes = [];
  if (added.length) changes.push(`added ${list(added)}`);
  if (removed.length) changes.push(`removed ${list(removed)}`);
  if (retyped.length) changes.push(`changed type of ${list(retyped)}`);
  if (before && before.row_count !== after.row_count) {
    changes.push(`rows ${Number(before.row_count).toLocaleString()} → ${Number(after.row_count).toLocaleString()}`);
  }
  return changes.length ? `Schema refreshed; it changed: ${changes.join('; ')}.` : 'Schema refreshed: no changes.';
}

/**
 * What a new version of the file changed, briefly, for its card ("120 rows, was 100"); null when nothing tells of a
 * new version (a rename, the same file loaded again). @param before the dataset as shown until now (may be missing)
 */
export function describeNewVersion(before, after) {
  if (before?.status !== 'ready' || after.status !== 'ready') return null;
  if (before.etag === after.etag && before.file_size === after.file_size) return null;
  const changes = [];
  if (before.row_count !== after.row_count) changes.push(`${count(after.row_count, 'row')}, was ${num(before.row_count)}`);
  if (before.column_count !== after.column_count) {
    changes.push(`${count(after.column_count, 'column')}, was ${num(before.column_count)}`);
  }
  return changes.length ? changes.join('; ') : 'A new version of the file';
}

function num(n) {
  return Number(n).toLocaleString();
}

/** How long a card says what a new version of its file changed: long enough to read, then the card is as before. */
const CHANGE_SHOWN_MS = 20_000;

/** Appends to a card what a new version changed ("120 rows, was 100"), for a while. */
export function showChange(card, text) {
  const note = document.createElement('div');
  note.className = 'dataset-change';
  note.setAttribute('role', 'status');
  note.textContent = text;
  card.append(note);
  setTimeout(() => note.remove(), CHANGE_SHOWN_MS);
}
