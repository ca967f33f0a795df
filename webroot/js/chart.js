// A chart spec from render_chart ({chart_type, x, y[], series, title, stacked}) drawn with Vega-Lite.
function typeOf(result, name) {
  const column = result.columns.find((c) => c.name === name);
  const type = (column?.type || '').toUpperCase();
  if (/INT|DECIMAL|DOUBLE|FLOAT|REAL|NUMERIC|HUGEINT/.test(type)) return 'quantitative';
  if (/DATE|TIME/.test(type)) return 'temporal';
  return 'nominal';
}

export function toVegaLite(spec, result) {
  const values = result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c.name, row[i]])));
  const ys = spec.y || [];
  const base = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: spec.title || undefined,
    data: { values },
    width: 'container',
    height: 260,
  };
  // A category axis keeps the result's row order (a top-N stays ranked); Vega-Lite would sort it by name.
  const xType = typeOf(result, spec.x);
  const x = { field: spec.x, type: xType, sort: xType === 'quantitative' || xType === 'temporal' ? undefined : null };
  const folded = ys.length > 1;
  const yField = folded ? 'value' : ys[0];
  const color = spec.series ? { field: spec.series, type: 'nominal' } : folded ? { field: 'series', type: 'nominal' } : undefined;
  const transform = folded ? [{ fold: ys, as: ['series', 'value'] }] : undefined;
  const y = { field: yField, type: 'quantitative', stack: spec.stacked ? 'zero' : (['bar', 'horizontal_bar', 'area'].includes(spec.chart_type) ? null : undefined) };
  switch (spec.chart_type) {
    case 'pie':
      return { ...base, transform, mark: { type: 'arc', tooltip: true },
        encoding: { theta: { field: yField, type: 'quantitative' }, color: { field: spec.x, type: 'nominal' } } };
    case 'histogram':
      return { ...base, mark: { type: 'bar', tooltip: true },
        encoding: { x: { field: spec.x, bin: true, type: 'quantitative' }, y: { aggregate: 'count', type: 'quantitative' } } };
    case 'heatmap':
      return { ...base, mark: { type: 'rect', tooltip: true },
        encoding: { x: { field: spec.x, type: 'ordinal' }, y: { field: spec.series || ys[1] || ys[0], type: 'ordinal' },
          color: { field: ys[0], type: 'quantitative' } } };
    case 'horizontal_bar':
      return { ...base, transform, mark: { type: 'bar', tooltip: true }, encoding: { y: { ...x, type: 'nominal', sort: null }, x: y, color } };
    case 'scatter':
      return { ...base, transform, mark: { type: 'point', tooltip: true }, encoding: { x, y, color } };
    case 'line':
    case 'area':
      return { ...base, transform, mark: { type: spec.chart_type, tooltip: true, point: spec.chart_type === 'line' }, encoding: { x, y, color } };
    default:
      return { ...base, transform, mark: { type: 'bar', tooltip: true }, encoding: { x: { ...x, type: x.type === 'quantitative' ? 'ordinal' : x.type, sort: null }, y, color, xOffset: spec.stacked || !color ? undefined : color } };
  }
}

export async function renderChart(element, spec, result) {
  element.classList.add('chart');
  // Expressions are interpreted, never compiled with new Function: the page's CSP forbids eval.
  await window.vegaEmbed(element, toVegaLite(spec, result),
    { renderer: 'svg', actions: false, ast: true, expr: window.vega.expressionInterpreter });
}
