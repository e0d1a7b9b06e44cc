import { html, type SafeHtml } from './html.ts';

/** One line of a plot over time: a label and a value (0 to 1) per point, `null` where unmeasured. */
export interface HistorySeries {
  label: string;
  values: readonly (number | null)[];
}

const WIDTH = 1000;
const HEIGHT = 260;
const LEFT = 52;
const RIGHT = 16;
const TOP = 14;
const BOTTOM = 40;
const INSET = 60;
/** Colours cycle through this many series classes (`series-0` … in the stylesheet). */
const SERIES_CLASSES = 8;

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * Rates over time as a line plot: one line per series (0 to 100%), one point per run with a `<title>`
 * (the browser's tooltip) naming the run and the value, and the runs' labels under the axis. Plain SVG
 * drawn on the server, like the trace waterfall; the legend is an HTML list beside it.
 */
export function historySvg({
  points,
  series,
}: {
  /** Each run's label (its date), oldest first. */
  points: readonly string[];
  series: readonly HistorySeries[];
}): SafeHtml {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  // The first and last runs sit a little inside the axes, so their dots and labels show whole.
  const inner = plotWidth - 2 * INSET;
  const x = (index: number) =>
    LEFT + INSET + (points.length > 1 ? (index / (points.length - 1)) * inner : inner / 2);
  const y = (value: number) => TOP + (1 - Math.min(1, Math.max(0, value))) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (value) =>
      html`<line class="grid" x1="${LEFT}" y1="${y(value)}" x2="${WIDTH - RIGHT}" y2="${y(value)}"></line><text class="axis" x="${LEFT - 6}" y="${y(value) + 4}" text-anchor="end">${`${value * 100}%`}</text>`,
  );
  // At most about ten run labels under the axis, evenly spaced, the last always.
  const every = Math.max(1, Math.ceil(points.length / 10));
  const labels = points.map((label, index) =>
    index % every === 0 || index === points.length - 1
      ? html`<text class="axis" x="${x(index)}" y="${HEIGHT - BOTTOM + 18}" text-anchor="middle">${label}</text>`
      : '',
  );
  const lines = series.map(({ label, values }, which) => {
    const kind = `series-${which % SERIES_CLASSES}`;
    const measured = values.flatMap((value, index) => (value === null ? [] : [{ value, index }]));
    const path = measured
      .map(({ value, index }) => `${x(index).toFixed(1)},${y(value).toFixed(1)}`)
      .join(' ');
    const dots = measured.map(
      ({ value, index }) =>
        html`<circle class="dot ${kind}" cx="${x(index).toFixed(1)}" cy="${y(value).toFixed(1)}" r="3.5"><title>${`${label}: ${percent(value)} (${points[index] ?? ''})`}</title></circle>`,
    );
    return html`<g class="series"><polyline class="line ${kind}" points="${path}"></polyline>${dots}</g>`;
  });
  const legend = series.map(
    ({ label }, which) =>
      html`<li><span class="swatch series-${which % SERIES_CLASSES}"></span>${label}</li>`,
  );
  return html`<figure class="history"><svg class="plot" role="img" aria-label="${`${series.length} lines over ${points.length} points`}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg">${grid}${labels}${lines}</svg><figcaption><ul class="legend">${legend}</ul></figcaption></figure>`;
}
