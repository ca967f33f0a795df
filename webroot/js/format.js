// How a result's cells read: numbers right-aligned and grouped in the reader's locale, every timestamp of a column in
// one format. Only what is shown changes: the raw value stays in the result (copy and CSV use it).

const INTEGER_TYPE = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|INT\d?)$/i;
const DECIMAL_TYPE = /^(DECIMAL|NUMERIC)\s*\(\s*\d+\s*,\s*(\d+)\s*\)$/i;
const FLOAT_TYPE = /^(FLOAT|DOUBLE|REAL|FLOAT4|FLOAT8|DECIMAL|NUMERIC)$/i;
const TEMPORAL_TYPE = /^(TIMESTAMP|TIME)\b/i;
/** A timestamp or time as the server writes it (Java's ISO text, which drops zero seconds), with any zone after. */
const TEMPORAL = /^(?:(\d{4,}-\d{2}-\d{2})[T ])?(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(.*)$/;
/** A number written as text (wide integers, precise decimals): Intl formats such text without rounding it. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

export function isNumericType(type) {
  const t = (type || '').trim();
  return INTEGER_TYPE.test(t) || DECIMAL_TYPE.test(t) || FLOAT_TYPE.test(t);
}

/** The raw value as text: what copy and CSV give, and the value a clipped cell shows in full. */
export function rawText(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A count and its noun, in the reader's locale: "1 row", "1,000 rows". */
export function count(n, noun) {
  return `${Number(n).toLocaleString()} ${noun}${Number(n) === 1 ? '' : 's'}`;
}

function numberFormat(type) {
  const t = (type || '').trim();
  const decimal = DECIMAL_TYPE.exec(t);
  if (decimal) {
    const scale = Number(decimal[2]);
    return new Intl.NumberFormat(undefined, { minimumFractionDigits: scale, maximumFractionDigits: scale });
  }
  // A double keeps every digit it has (Intl gives its shortest exact text), only grouped.
  return new Intl.NumberFormat(undefined, { maximumFractionDigits: INTEGER_TYPE.test(t) ? 0 : 20 });
}

/** The fraction digits a column's timestamps need: the most any of its values has. */
function fractionDigits(values) {
  let digits = 0;
  for (const v of values) {
    const m = typeof v === 'string' ? TEMPORAL.exec(v) : null;
    if (m && m[5]) digits = Math.max(digits, m[5].length);
  }
  return digits;
}

function temporalText(value, digits) {
  const m = typeof value === 'string' ? TEMPORAL.exec(value) : null;
  if (!m) return rawText(value);
  const [, date, hours, minutes, seconds = '00', fraction = '', zone] = m;
  const time = `${hours}:${minutes}:${seconds}${digits ? `.${fraction.padEnd(digits, '0')}` : ''}`;
  return `${date ? `${date} ` : ''}${time}${zone}`;
}

/**
 * How one column's values read.
 *
 * @param column {name, type}
 * @param values every value of the column the table holds (so that a column keeps one format across its pages)
 * @return {numeric, text(value)}: numeric columns are right-aligned
 */
export function columnFormat(column, values) {
  const type = column.type || '';
  if (isNumericType(type)) {
    const nf = numberFormat(type);
    return {
      numeric: true,
      text: (v) => (typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v)) ? nf.format(v) : rawText(v)),
    };
  }
  if (TEMPORAL_TYPE.test(type.trim())) {
    const digits = fractionDigits(values);
    return { numeric: false, text: (v) => temporalText(v, digits) };
  }
  return { numeric: false, text: rawText };
}
