// Next questions under the latest answer, made from its result's columns and the conversation's tables (no model
// call): a chart of what it counted, the group that leads, a breakdown of a single figure, or a question about the
// tables not asked yet. One click asks it. They go as soon as another question is asked.
import { starterQuestions } from './starters.js';

/** At most this many are offered. */
export const MAX_FOLLOW_UPS = 3;

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|REAL|DOUBLE|DECIMAL)/i;
const TIME = /^(DATE|TIMESTAMP)/i;
const TEXT = /^VARCHAR/i;
const GROUPABLE = new Set(['Text']);
const NOT_A_GROUP = /(^|_)(id|uuid|key|name|title|description|url|email)$/i;

/**
 * @param result   the answer's last result: {sql, columns: [{name, type}], total_rows}
 * @param datasets the conversation's datasets (their names and schemas)
 * @param asked    the questions already asked in the conversation
 */
export function followUps(result, datasets, asked) {
  const columns = result?.columns || [];
  const numeric = columns.find((c) => NUMERIC.test(c.type || ''));
  const group = columns.find((c) => TEXT.test(c.type || ''));
  const time = columns.find((c) => TIME.test(c.type || ''));
  const questions = [];
  if (group && numeric && result.total_rows > 1) {
    questions.push(`Show this as a bar chart of ${numeric.name} by ${group.name}`);
    questions.push(`Which ${group.name} has the highest ${numeric.name}?`);
  }
  if (time && numeric && result.total_rows > 1) questions.push(`Show ${numeric.name} over ${time.name} as a line chart`);
  if (result?.total_rows === 1) questions.push(...breakdowns(result.sql || '', datasets));
  questions.push(...starterQuestions(datasets));
  const before = new Set(asked.map((q) => q.trim()));
  return [...new Set(questions)].filter((q) => !before.has(q)).slice(0, MAX_FOLLOW_UPS);
}

/** A single figure broken down by a category, or by month, of a table its SQL reads. */
function breakdowns(sql, datasets) {
  const read = datasets.filter((d) => d.status === 'ready' && new RegExp(`\\b${escape(d.name)}\\b`, 'i').test(sql));
  return read.flatMap((d) => {
    const schema = d.schema || [];
    const group = schema.find((c) => GROUPABLE.has(c.friendly_type) && !NOT_A_GROUP.test(c.name));
    const time = schema.find((c) => c.friendly_type === 'Date' || c.friendly_type === 'Timestamp');
    return [group && `Break this down by ${group.name}`, time && `How did this change by month of ${time.name}?`]
      .filter(Boolean);
  });
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The chips: each a button that asks its question. */
export function followUpChips(questions, ask) {
  const group = document.createElement('div');
  group.className = 'follow-ups';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Suggested next questions');
  for (const question of questions) {
    const chip = document.createElement('button');
    chip.type = 'button';
    chip.className = 'follow-up';
    chip.textContent = question;
    chip.addEventListener('click', () => {
      group.remove();
      ask(question);
    });
    group.append(chip);
  }
  return group;
}
