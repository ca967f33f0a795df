// A conversation as it was made: its messages, and the results the user ran themselves, in time order. An edit of an
// answer's SQL stands under its answer; any other run (the SQL runner's, or an edit whose answer is gone) stands
// among the messages where it was made.

/** Messages and runs by when they were made (ISO timestamps compare as text); messages first on a tie. */
function inTimeOrder(messages, runs) {
  const merged = [];
  let r = 0;
  for (const message of messages) {
    while (r < runs.length && runs[r].created_at < message.created_at) merged.push(runs[r++]);
    merged.push(message);
  }
  return merged.concat(runs.slice(r));
}

/**
 * @param runs {result_id, origin, message_id, created_at}, oldest first
 * @return {items: messages and loose runs in time order, editsOf: (answerId) => the edits shown under it}
 */
export function timeline(messages, runs = []) {
  const answers = new Set(messages.map((m) => m.id));
  const underAnswer = runs.filter((r) => r.origin === 'edited' && answers.has(r.message_id));
  const loose = runs.filter((r) => !underAnswer.includes(r));
  return {
    items: inTimeOrder(messages, loose),
    editsOf: (answerId) => underAnswer.filter((r) => r.message_id === answerId),
  };
}

export function isRun(item) {
  return Boolean(item.result_id);
}
