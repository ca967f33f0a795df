// A result's own chart: the reader picks a kind of chart and its columns, and it is drawn from the result's stored
// rows. An answer's chart describes the answer's result; a re-run or a SQL run gets its chart this way.
import { renderChart } from './chart.js';
import { isNumericType } from './format.js';
import { chartImageActions } from './chart-image.js';

const KINDS = [['bar', 'Bar'], ['line', 'Line'], ['area', 'Area'], ['scatter', 'Scatter'], ['pie', 'Pie']];
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
 * Below a result's table: "Chart this result", closed until asked for (one tab stop while closed). Its Y is one of
 * the result's numeric columns: a result with none has nothing to chart, and no such action (null).
 */
export function chartActions(result, { drawn = () => {} } = {}) {
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
  const y = select('Y', numbers, firstNumber);
  const draw = document.createElement('button');
  draw.type = 'button';
  draw.textContent = 'Draw';
  const form = document.createElement('div');
  form.className = 'chart-form';
  form.append(kind.wrap, x.wrap, y.wrap, draw);
  const holder = document.createElement('div');
  details.append(summary, form, holder);
  draw.addEventListener('click', async () => {
    const spec = { chart_type: kind.select.value, x: x.select.value, y: [y.select.value],
      title: `${y.select.value} by ${x.select.value}` };
    try {
      await renderChart(holder, spec, result);
      details.querySelector('.chart-image-actions')?.remove();
      const images = chartImageActions(holder, spec.title);
      if (images) details.append(images);
    } catch (e) {
      holder.textContent = `Chart unavailable: ${e.message}`;
    }
    drawn();
  });
  return details;
}
