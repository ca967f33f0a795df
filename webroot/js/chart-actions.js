// A result's own chart: the reader picks what render_chart offers the model (a kind of chart, x, y, series, how rows
// sharing an x combine) and the server computes it from every row of the result. An answer's chart describes the
// answer's result; a re-run or a SQL run gets its chart this way.
import { renderChart } from './chart.js';
import { isNumericType } from './format.js';
import { chartImageActions } from './chart-image.js';
import { pinButton, questionOf, firstLine } from './pin-dialog.js';

const KINDS = [['bar', 'Bar'], ['horizontal_bar', 'Horizontal bar'], ['line', 'Line'], ['area', 'Area'],
  ['scatter', 'Scatter'], ['pie', 'Pie'], ['histogram', 'Histogram (of X)'], ['heatmap', 'Heat map (X by series)']];
const AGGREGATES = [['sum', 'Sum'], ['mean', 'Mean'], ['count', 'Count'], ['min', 'Min'], ['max', 'Max']];
/** Y's choice that counts rows instead of a column's values. */
const ROWS = '';
let serial = 0;

function select(label, options, chosen) {
  const id = `chart-field-${++serial}`;
  const wrap = document.createElement('span');
  wrap.className = 'chart-field';
  const l = document.createElement('label');
  l.htmlFor = id;
  l.textContent = label;
  const s = document.createElement('select');
  s.id = id;
  for (const [value, text] of options) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    s.append(o);
  }
  if (chosen) s.value = chosen;
  wrap.append(l, s);
  return { wrap, select: s };
}

/**
 * Below a result's table: "Chart this result", closed until asked for (one tab stop while closed). A result with no
 * numeric column has nothing to chart, and no such action (null).
 * @param data (spec) => Promise of what the chart draws, computed by the server from every row of the result
 */
export function chartActions(result, { drawn = () => {}, data }) {
  const numbers = result.columns.filter((c) => isNumericType(c.type)).map((c) => [c.name, c.name]);
  if (!numbers.length) return null;
  const details = document.createElement('details');
  details.className = 'chart-actions';
  const summary = document.createElement('summary');
  summary.textContent = 'Chart this result';
  const names = result.columns.map((c) => [c.name, c.name]);
  const firstNumber = numbers[0][0];
  const firstOther = result.columns.find((c) => c.name !== firstNumber)?.name;
  const kind = select('Chart', KINDS, 'bar');
  const x = select('X', names, firstOther);
  const y = select('Y', [...numbers, [ROWS, 'Rows']], firstNumber);
  const series = select('Series', [['', 'None'], ...names]);
  const aggregate = select('Combine', AGGREGATES, 'sum');
  const draw = document.createElement('button');
  draw.type = 'button';
  draw.textContent = 'Draw';
  const form = document.createElement('div');
  form.className = 'chart-form';
  form.append(kind.wrap, x.wrap, y.wrap, series.wrap, aggregate.wrap, draw);
  const holder = document.createElement('div');
  details.append(summary, form, holder);
  draw.addEventListener('click', async () => {
    const spec = specOf(kind.select.value, x.select.value, y.select.value, series.select.value,
      aggregate.select.value);
    try {
      await renderChart(holder, spec, await data(spec));
      details.querySelector('.chart-image-actions')?.remove();
      const images = chartImageActions(holder, spec.title);
      if (images) details.append(images);
      details.querySelector(':scope > .pin-to-board')?.remove();
      details.append(pinButton(() => ({ result_id: result.id, kind: 'chart', chart: spec,
        title: questionOf(details) || firstLine(result.sql) })));
    } catch (e) {
      holder.textContent = `Chart unavailable: ${e.message}`;
    }
    drawn();
  });
  return details;
}

function specOf(kind, x, y, series, aggregate) {
  const counted = y === ROWS || kind === 'histogram';
  const spec = { chart_type: kind, x, y: counted ? [] : [y], aggregate: y === ROWS ? 'count' : aggregate,
    title: kind === 'histogram' ? `Rows by ${x}` : `${counted ? 'Rows' : y} by ${x}` };
  if (series) spec.series = series;
  return spec;
}
