// A chart never hides a row. When x repeats in a result's rows, one bar or point per row would draw rows sharing an x
// over each other, unseen: a categorical column that tells those rows apart becomes the series (colour, and grouped
// bars), and with none, y is summed for each x and the chart's subtitle says so. The server's render_chart check
// (ChartSpecs) names the same column to the model.
import { isNumericType } from './format.js';

/** Chart types that draw one mark per x (per series). */
const PER_X = ['bar', 'horizontal_bar', 'line', 'area'];

function distinctOf(result, names) {
  const at = names.map((name) => result.columns.findIndex((c) => c.name === name));
  return new Set(result.rows.map((row) => JSON.stringify(at.map((i) => row[i])))).size;
}

const isCategory = (column) => !isNumericType(column.type) && !/DATE|TIME/i.test(column.type || '');

/**
 * What a spec needs so that every row shows: {series} a column to colour by, {sum} the subtitle of a chart that sums
 * y for each x, or {} when nothing is hidden (x does not repeat, a series is given, or the chart is not one mark per x).
 */
export function keepEveryRow(spec, result) {
  if (spec.series || !PER_X.includes(spec.chart_type || 'bar')) return {};
  const rows = result.rows.length;
  const xs = distinctOf(result, [spec.x]);
  if (xs === rows) return {};
  const ys = spec.y || [];
  const series = ys.length > 1 ? undefined : result.columns.find((c) => c.name !== spec.x && !ys.includes(c.name)
    && isCategory(c) && distinctOf(result, [spec.x, c.name]) === rows)?.name;
  if (series) return { series };
  return { sum: `sum of ${ys.join(', ')} for each ${spec.x}: ${rows} rows combined into ${xs}` };
}

/** A time axis whose ticks name the year when the values span more than one. */
export function timeAxis(result, name) {
  const i = result.columns.findIndex((c) => c.name === name);
  const years = new Set(result.rows.map((row) => new Date(row[i]).getUTCFullYear()).filter((y) => !Number.isNaN(y)));
  // Dates arrive as ISO text, which JavaScript reads as UTC: the axis labels them in UTC too, so no day moves.
  return { scale: { type: 'utc' }, axis: years.size > 1 ? { format: '%b %Y' } : undefined };
}
