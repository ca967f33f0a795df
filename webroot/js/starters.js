// Starter questions for an empty conversation, built from its ready tables' columns (their names and friendly types;
// no model call): how many rows, an average by a category, a trend by month, the commonest values, and so on, as
// far as the columns allow.

/** At most this many questions are offered. */
export const MAX_STARTERS = 4;

const NUMERIC = new Set(['Integer', 'Decimal']);
const TIME = new Set(['Date', 'Timestamp']);
/** Text columns that name or describe a row, rather than put it in a group: no average "by name". */
const NOT_A_GROUP = /(^|_)(id|uuid|key|name|title|description|desc|url|link|comment|comments|text|note|notes|email)$/i;
/** Numeric columns that identify a row: no average of an id. */
const IDENTIFIER = /(^|_)id$|uuid/i;

function columns(dataset, test) {
  return (dataset.schema || []).filter((c) => test(c.friendly_type) && c.name);
}

/** The questions one table's columns suggest, most telling first. */
function questionsFor(dataset) {
  const table = dataset.name;
  const numeric = columns(dataset, (t) => NUMERIC.has(t)).find((c) => !IDENTIFIER.test(c.name));
  const group = columns(dataset, (t) => t === 'Text').find((c) => !NOT_A_GROUP.test(c.name));
  const time = columns(dataset, (t) => TIME.has(t))[0];
  const flag = columns(dataset, (t) => t === 'Boolean')[0];
  const questions = [`How many rows does ${table} have?`];
  if (numeric && group) questions.push(`What is the average ${numeric.name} by ${group.name}?`);
  if (time) {
    questions.push(numeric ? `How did ${numeric.name} change over time by month?`
      : `How many rows of ${table} are there per month of ${time.name}?`);
  }
  if (group) questions.push(`What are the most common values of ${group.name}?`);
  if (flag) questions.push(`What share of ${table} has ${flag.name} true?`);
  if (numeric) questions.push(`What are the smallest, average and largest ${numeric.name}?`);
  return questions;
}

/** @param datasets the conversation's datasets, as stored; only ready ones (with a schema) count */
export function starterQuestions(datasets) {
  const ready = datasets.filter((d) => d.status === 'ready' && Array.isArray(d.schema));
  const all = ready.flatMap(questionsFor);
  return [...new Set(all)].slice(0, MAX_STARTERS);
}
