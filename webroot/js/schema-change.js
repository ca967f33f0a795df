// What a schema refresh changed, in one sentence for the schema modal: a refresh that changed nothing says so too.

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
