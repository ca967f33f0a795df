// How a result's cells read: numbers right-aligned and grouped in the reader's locale, a column's fractions rounded to
// the decimals its values need, every timestamp of a column in one format. Only what is shown changes: the raw value
// stays in the result (copy and CSV use it) and a rounded cell shows its full value on hover and focus.

const INTEGER_TYPE = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|INT\d?)$/i;
const DECIMAL_TYPE = /^(DECIMAL|NUMERIC)\s*\(\s*\d+\s*,\s*(\d+)\s*\)$/i;
const FLOAT_TYPE = /^(FLOAT|DOUBLE|REAL|FLOAT4|FLOAT8|DECIMAL|NUMERIC)$/i;
const TEMPORAL_TYPE = /^(TIMESTAMP|TIME)\b/i;
/** A timestamp or time as the server writes it (Java's ISO text, which drops zero seconds), with any zone after. */
const TEMPORAL = /^(?:(\d{4,}-\d{2}-\d{2})[T ])?(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(.*)$/;
/** A number written as text (wide integers, precise decimals): Intl formats such text without rounding it. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
/** Decimals a column of fractions shows at least (unless its values have fewer) and at most. */
const MIN_DECIMALS = 2;
const MAX_DECIMALS = 6;
/** Significant digits the smallest value of a column keeps (0.000123 reads 0.00012, not 0.00). */
const SMALL_DIGITS = 2;

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

function isNumber(v) {
  return typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v));
}

/** Decimals v has in its shortest exact text (1e-7 has 7). */
function decimalsOf(v) {
  const [mantissa, exponent = '0'] = String(v).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] || '';
  return Math.max(0, fraction.length - Number(exponent));
}

/**
 * The decimals a column's fractions need: enough that values that differ still read differently and that its smallest
 * value keeps two significant digits, at least 2 and at most 6 (never more than any value has).
 */
export function decimalsFor(values) {
  const numbers = [...new Set(values.filter(isNumber).map(Number).filter(Number.isFinite))];
  const exact = Math.max(0, ...numbers.map(decimalsOf));
  if (exact <= MIN_DECIMALS) return exact;
  const smallest = Math.min(...numbers.filter((n) => n !== 0).map(Math.abs));
  let digits = Math.max(MIN_DECIMALS, SMALL_DIGITS - 1 - Math.floor(Math.log10(smallest)));
  while (digits < MAX_DECIMALS && new Set(numbers.map((n) => n.toFixed(digits))).size < numbers.length) digits += 1;
  return Math.min(exact, digits, MAX_DECIMALS);
}

/** {shown, full}: how a column's numbers read, and how they read unrounded. */
function numberFormats(type, values) {
  const t = (type || '').trim();
  const decimal = DECIMAL_TYPE.exec(t);
  if (decimal) {
    const scale = Number(decimal[2]);
    const digits = scale <= MIN_DECIMALS ? scale : Math.min(scale, Math.max(MIN_DECIMALS, decimalsFor(values)));
    return {
      shown: new Intl.NumberFormat(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
      full: new Intl.NumberFormat(undefined, { minimumFractionDigits: scale, maximumFractionDigits: scale }),
    };
  }
  // A double's full text has every digit it has (Intl gives its shortest exact text), only grouped.
  const full = new Intl.NumberFormat(undefined, { maximumFractionDigits: INTEGER_TYPE.test(t) ? 0 : 20 });
  if (INTEGER_TYPE.test(t)) return { shown: full, full };
  return { shown: new Intl.NumberFormat(undefined, { maximumFractionDigits: decimalsFor(values) }), full };
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
 * @return {numeric, text(value), full(value)}: numeric columns are right-aligned; full is the text of a value unrounded
 */
export function columnFormat(column, values) {
  const type = column.type || '';
  if (isNumericType(type)) {
    const { shown, full } = numberFormats(type, values);
    return {
      numeric: true,
      text: (v) => (isNumber(v) ? shown.format(v) : rawText(v)),
      full: (v) => (isNumber(v) ? full.format(v) : rawText(v)),
    };
  }
  if (TEMPORAL_TYPE.test(type.trim())) {
    const digits = fractionDigits(values);
    return { numeric: false, text: (v) => temporalText(v, digits) };
  }
  return { numeric: false, text: rawText };
}
