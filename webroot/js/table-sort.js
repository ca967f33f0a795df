// A result table's sort: by a column, ascending first, then the other way. A table that holds every row of its result
// sorts them itself; one that holds only the first re-runs the result's query sorted, so that what it shows is the
// sort of all the result's rows, never a sort of the rows that happen to be stored.
import { count, isNumericType, rawText } from './format.js';

/** Nulls last in either direction, as the re-run query's NULLS LAST does. */
function comparator(column, ascending) {
  const numeric = isNumericType(column.type);
  const direction = ascending ? 1 : -1;
  return (left, right) => {
    const a = left[column.index];
    const b = right[column.index];
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    // Wide integers and decimals may come as strings: a numeric column compares as numbers either way.
    if (numeric || (typeof a === 'number' && typeof b === 'number')) return (Number(a) - Number(b)) * direction;
    return rawText(a).localeCompare(rawText(b), undefined, { numeric: true }) * direction;
  };
}

/** The sort a click on a column's header asks for, after the table's sort ({index, ascending} or null). */
export function nextSort(sort, column) {
  return { index: column.index, ascending: sort?.index === column.index ? !sort.ascending : true };
}

/** A sort ({column, ascending}) as words to follow what was sorted; nothing for the result's own order. */
export function sortedBy(sort) {
  return sort ? `, sorted by ${sort.column} ${sort.ascending ? 'ascending' : 'descending'}` : '';
}

/** Sorts the rows the table state holds, which are all its result's, by the column. */
export function sortHeld(state, column, sort) {
  state.rows.sort(comparator(column, sort.ascending));
  Object.assign(state, { sort, page: 0, status: '', failed: false });
}

/**
 * Replaces the first rows the table state holds with those of the result's query re-run sorted by the column.
 * @param resort  (position, ascending) => Promise<result>: the query sorted by its column at that 1-based position
 * @param sorting () => void: told when the state says that it sorts, before the query answers
 */
export async function resortAll(state, column, sort, resort, sorting) {
  Object.assign(state, { status: `Sorting all ${count(state.shown.total_rows, 'row')}…`, failed: false });
  sorting();
  try {
    const sorted = await resort(column.index + 1, sort.ascending);
    Object.assign(state, { shown: sorted, rows: sorted.rows.slice(), sort, page: 0, status: '', failed: false,
      formats: null });
  } catch (e) {
    Object.assign(state, { status: `Could not sort: ${e.message}`, failed: true });
  }
}
