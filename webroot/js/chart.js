// A chart spec from render_chart ({chart_type, x, y[], series, title, stacked}) drawn with Vega-Lite, in colours that
// follow the page's theme: charts drawn already are drawn again when the theme changes.
import { isNumericType } from './format.js';
import { keepEveryRow, timeAxis } from './chart-rows.js';

/** Charts on the page, to draw again in a new theme: element → {spec, result, embedded}. */
const drawn = new Map();

function typeOf(result, name) {
  const column = result.columns.find((c) => c.name === name);
  const type = (column?.type || '').toUpperCase();
  if (isNumericType(type)) return 'quantitative';
  if (/DATE|TIME/.test(type)) return 'temporal';
  return 'nominal';
}

export function toVegaLite(spec, result) {
  const values = result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, row[i]])));
  const ys = spec.y || [];
  const keep = keepEveryRow(spec, result);
  const series = spec.series || keep.series;
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: keep.sum ? { text: spec.title || `${ys.join(', ')} by ${spec.x}`, subtitle: keep.sum } : spec.title || undefined,
    // What assistive technology says of the chart as a whole.
    description: spec.title || `${spec.chart_type || 'bar'} chart of ${ys.join(', ')} by ${spec.x}`,
    data: { values },
    width: 'container',
    height: 260,
  };
  // A category axis keeps the result's row order (a top-N stays ranked); Vega-Lite would sort it by name.
  const xType = typeOf(result, spec.x);
  const x = { field: spec.x, type: xType, sort: xType === 'quantitative' || xType === 'temporal' ? undefined : null,
    ...(xType === 'temporal' ? timeAxis(result, spec.x) : {}) };
  const folded = ys.length > 1;
  const yField = folded ? 'value' : ys[0];
  const color = series ? { field: series, type: 'nominal' } : folded ? { field: 'series', type: 'nominal' } : undefined;
  const offset = spec.stacked || !color ? undefined : color;
  const transform = folded ? [{ fold: ys, as: ['series', 'value'] }] : undefined;
  const y = { field: yField, type: 'quantitative', aggregate: keep.sum ? 'sum' : undefined, stack: spec.stacked ? 'zero' : (['bar', 'horizontal_bar', 'area'].includes(spec.chart_type) ? null : undefined) };
  switch (spec.chart_type) {
    case 'pie':
      return { ...base, transform, mark: { type: 'arc', tooltip: true },
        encoding: { theta: { field: yField, type: 'quantitative' }, color: { field: spec.x, type: 'nominal' } } };
    case 'histogram':
      return { ...base, mark: { type: 'bar', tooltip: true },
        encoding: { x: { field: spec.x, bin: true, type: 'quantitative' }, y: { aggregate: 'count', type: 'quantitative' } } };
    case 'heatmap':
      return { ...base, mark: { type: 'rect', tooltip: true },
        encoding: { x: { field: spec.x, type: 'ordinal' }, y: { field: series || ys[1] || ys[0], type: 'ordinal' },
          color: { field: ys[0], type: 'quantitative' } } };
    case 'horizontal_bar':
      return { ...base, transform, mark: { type: 'bar', tooltip: true }, encoding: { y: { ...x, type: 'nominal', sort: null, scale: undefined, axis: undefined }, x: y, color, yOffset: offset } };
    case 'scatter':
      return { ...base, transform, mark: { type: 'point', tooltip: true }, encoding: { x, y, color } };
    case 'line':
    case 'area':
      return { ...base, transform, mark: { type: spec.chart_type, tooltip: true, point: spec.chart_type === 'line' }, encoding: { x, y, color } };
    default:
      return { ...base, transform, mark: { type: 'bar', tooltip: true }, encoding: { x: { ...x, type: x.type === 'quantitative' ? 'ordinal' : x.type, sort: null }, y, color, xOffset: offset } };
  }
}

/** Vega's colours for text, lines and background, taken from the page's theme (its CSS custom properties). */
export function themeConfig() {
  const css = getComputedStyle(document.documentElement);
  const v = (name) => css.getPropertyValue(name).trim();
  const text = v('--text');
  const muted = v('--muted');
  const border = v('--border');
  return {
    background: v('--bg'),
    title: { color: text, subtitleColor: muted },
    axis: { labelColor: text, titleColor: text, gridColor: border, domainColor: muted, tickColor: muted },
    legend: { labelColor: text, titleColor: text },
    header: { labelColor: text, titleColor: text },
    view: { stroke: border },
    style: { 'guide-label': { fill: text }, 'guide-title': { fill: text } },
  };
}

async function embed(element, spec, result) {
  // Expressions are interpreted, never compiled with new Function: the page's CSP forbids eval.
  return window.vegaEmbed(element, toVegaLite(spec, result), {
    renderer: 'svg', actions: false, ast: true, expr: window.vega.expressionInterpreter, config: themeConfig(),
  });
}

const currentTheme = () => document.documentElement.dataset.theme || '';

export async function renderChart(element, spec, result) {
  element.classList.add('chart');
  drawn.get(element)?.embedded?.finalize();
  const entry = { spec, result, embedded: null };
  drawn.set(element, entry);
  const theme = currentTheme();
  entry.embedded = await embed(element, spec, result);
  // The theme changed while it was being drawn: it is drawn again in the new one.
  if (theme !== currentTheme()) {
    await renderChart(element, spec, result);
    return;
  }
  element.dataset.drawnTheme = theme;
}

/** Draws every chart on the page again in the theme now applied; charts no longer on the page are let go. */
async function redrawAll() {
  for (const [element, entry] of [...drawn]) {
    if (!element.isConnected) {
      entry.embedded?.finalize();
      drawn.delete(element);
    } else if (entry.embedded) {
      await renderChart(element, entry.spec, entry.result);
    }
  }
}

document.addEventListener('quarry:theme', () => {
  redrawAll().catch(() => {});
});

/** The Vega view of a chart drawn in this element (for saving it as an image), or null. */
export function chartView(element) {
  return drawn.get(element)?.embedded?.view || null;
}
