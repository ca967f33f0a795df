// A chart spec from render_chart ({chart_type, x, y[], series, aggregate, title, stacked}) drawn with Vega-Lite from
// what the server computed of every row of its result ({columns, rows, shows}: aggregated, binned or sampled), in
// colours that follow the page's theme: charts drawn already are drawn again when the theme changes. Its subtitle
// says what it shows, so the page and its PNG and SVG never pass a part for the whole.
import { isNumericType } from './format.js';

/** Charts on the page, to draw again in a new theme: element → {spec, data, embedded}. */
const drawn = new Map();

// Vega, its expression interpreter, Vega-Lite and vega-embed (830 KB) load with the first chart a page draws, not with
// every page: most pages never draw one, and parsing them was a third of a page load's CPU. WebJars serves the webjar
// files named here as it does the pages' own.
const VEGA = ['/webjars/vega/5.32.0/vega.min.js', '/vendor/vega-interpreter-1.2.0/vega-interpreter.min.js',
  '/webjars/vega-lite/5.23.0/vega-lite.min.js', '/webjars/vega-embed/6.29.0/vega-embed.min.js'];
let vegaLoaded = null;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    // Fetched side by side, run in the order given: each needs the one before it.
    script.async = false;
    script.onload = resolve;
    script.onerror = () => {
      script.remove();
      reject(new Error('The chart library did not load.'));
    };
    document.head.append(script);
  });
}

/**
 * Loads Vega once. After a failure the next chart loads all four again: a script that ran without the one before it
 * (vega-embed without Vega-Lite) is of no use.
 */
function loadVega() {
  vegaLoaded ??= Promise.all(VEGA.map(loadScript)).catch((e) => {
    vegaLoaded = null;
    throw e;
  });
  return vegaLoaded;
}

function typeOf(data, name) {
  const column = data.columns.find((c) => c.name === name);
  const type = (column?.type || '').toUpperCase();
  if (isNumericType(type)) return 'quantitative';
  if (/^(DATE|TIMESTAMP)/.test(type)) return 'temporal';
  return 'nominal';
}

/** A time axis whose ticks name the year when the values span more than one. */
function timeAxis(data, name) {
  const i = data.columns.findIndex((c) => c.name === name);
  const years = new Set(data.rows.map((row) => new Date(row[i]).getUTCFullYear()).filter((y) => !Number.isNaN(y)));
  // Dates arrive as ISO text, which JavaScript reads as UTC: the axis labels them in UTC too, so no day moves.
  return { scale: { type: 'utc' }, axis: years.size > 1 ? { format: '%b %Y' } : undefined };
}

export function toVegaLite(spec, data) {
  const values = data.rows.map((row) => Object.fromEntries(data.columns.map((c, i) => [c.name, row[i]])));
  const ys = spec.y?.length ? spec.y : ['count'];
  const series = spec.series;
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: { text: spec.title || `${ys.join(', ')} by ${spec.x}`, subtitle: data.shows },
    // What assistive technology says of the chart as a whole.
    description: `${spec.title || `${spec.chart_type} chart of ${ys.join(', ')} by ${spec.x}`}: ${data.shows}`,
    data: { values },
    width: 'container',
    height: 260,
  };
  // A category axis keeps the order the server kept (the result's: a top-N stays ranked); numbers and dates are
  // continuous.
  const xType = typeOf(data, spec.x);
  const continuous = xType !== 'nominal' && ['bar', 'line', 'area', 'scatter'].includes(spec.chart_type);
  const x = { field: spec.x, type: continuous ? xType : 'nominal', sort: continuous ? undefined : null,
    ...(continuous && xType === 'temporal' ? timeAxis(data, spec.x) : {}) };
  const folded = ys.length > 1;
  const yField = folded ? 'value' : ys[0];
  const color = series ? { field: series, type: 'nominal' } : folded ? { field: 'series', type: 'nominal' } : undefined;
  const offset = spec.stacked || !color || continuous ? undefined : color;
  const transform = folded ? [{ fold: ys, as: ['series', 'value'] }] : undefined;
  const y = { field: yField, type: 'quantitative',
    stack: spec.stacked ? 'zero' : (['bar', 'horizontal_bar', 'area'].includes(spec.chart_type) ? null : undefined) };
  switch (spec.chart_type) {
    case 'pie':
      return { ...base, transform, mark: { type: 'arc', tooltip: true },
        encoding: { theta: { field: yField, type: 'quantitative' }, color: { field: spec.x, type: 'nominal', sort: null } } };
    case 'histogram':
      return { ...base, mark: { type: 'bar', tooltip: true },
        encoding: { x: { field: 'bin_start', bin: 'binned', type: 'quantitative', title: spec.x }, x2: { field: 'bin_end' },
          y: { field: 'count', type: 'quantitative', title: 'rows' } } };
    case 'heatmap':
      return { ...base, mark: { type: 'rect', tooltip: true },
        encoding: { x: { field: spec.x, type: 'ordinal' }, y: { field: series, type: 'ordinal' },
          color: { field: ys[0], type: 'quantitative' } } };
    case 'horizontal_bar':
      return { ...base, transform, mark: { type: 'bar', tooltip: true },
        encoding: { y: { field: spec.x, type: 'nominal', sort: null }, x: y, color, yOffset: offset } };
    case 'scatter':
      return { ...base, transform, mark: { type: 'point', tooltip: true }, encoding: { x, y, color } };
    case 'line':
    case 'area':
      return { ...base, transform, mark: { type: spec.chart_type, tooltip: true, point: spec.chart_type === 'line' && values.length <= 100 },
        encoding: { x, y, color } };
    default:
      return { ...base, transform, mark: { type: 'bar', tooltip: true }, encoding: { x, y, color, xOffset: offset } };
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

async function embed(element, spec, data) {
  await loadVega();
  // Expressions are interpreted, never compiled with new Function: the page's CSP forbids eval.
  return window.vegaEmbed(element, toVegaLite(spec, data), {
    renderer: 'svg', actions: false, ast: true, expr: window.vega.expressionInterpreter, config: themeConfig(),
  });
}

const currentTheme = () => document.documentElement.dataset.theme || '';

/** @param data what the server computed of every row of the result: {columns, rows, shows} */
export async function renderChart(element, spec, data) {
  element.classList.add('chart');
  element.dataset.shows = data.shows;
  drawn.get(element)?.embedded?.finalize();
  const entry = { spec, data, embedded: null };
  drawn.set(element, entry);
  const theme = currentTheme();
  entry.embedded = await embed(element, spec, data);
  // The theme changed while it was being drawn: it is drawn again in the new one.
  if (theme !== currentTheme()) {
    await renderChart(element, spec, data);
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
      await renderChart(element, entry.spec, entry.data);
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
