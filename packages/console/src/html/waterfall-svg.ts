import { redactText } from '@switchboard/agent';
import { buildTraceTree, type SpanRecord, type TraceNode } from '@switchboard/telemetry/trace';
import { html, type SafeHtml } from './html.ts';

/** One span as a row of the waterfall: how deep it sits under its root. */
export interface WaterfallRow {
  span: SpanRecord;
  depth: number;
}

/** Spans drawn at most in one waterfall; the rest are counted below it. */
export const WATERFALL_MAX_SPANS = 400;

const WIDTH = 1000;
const LABELS = 380;
const BARS_FROM = LABELS + 10;
const BARS_WIDTH = WIDTH - BARS_FROM - 70;
const ROW = 22;
const AXIS = 26;
/** Colours cycle through this many service classes (`svc-0` … in the stylesheet). */
const SERVICE_CLASSES = 8;

const timed = (span: SpanRecord) => span.startMs > 0 && span.endMs >= span.startMs;

/** The spans of a trace in the order a waterfall shows them: each under its parent, by start time. */
export function waterfallRows(spans: readonly SpanRecord[]): WaterfallRow[] {
  const rows: WaterfallRow[] = [];
  const seen = new Set<TraceNode>();
  const visit = (node: TraceNode, depth: number) => {
    if (seen.has(node)) return;
    seen.add(node);
    rows.push({ span: node.span, depth });
    for (const child of node.children) visit(child, depth + 1);
  };
  for (const root of buildTraceTree(spans).roots) visit(root, 0);
  return rows;
}

/** Milliseconds for people: 0.4 ms, 12.5 ms, 148 ms, 2.31 s. */
export function formatMs(ms: number): string {
  if (ms >= 1_000) return `${(ms / 1_000).toFixed(2)} s`;
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}

/** A span's duration for people; `? ms` when its source gave no times. */
export const spanDuration = (span: SpanRecord): string => (timed(span) ? formatMs(span.durationMs) : '? ms');

const cut = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * A trace as a waterfall: one row per span (service and name, indented under its parent), a bar from
 * its start to its end on the trace's time axis, coloured by service, red-edged when it failed, and a
 * `<title>` (the browser's tooltip) with its service, name, duration and status. Plain SVG drawn on the
 * server: no script, no inline style (the CSP allows neither); every text is the `html` tag's, inert.
 */
export function waterfallSvg(spans: readonly SpanRecord[]): SafeHtml {
  const rows = waterfallRows(spans).slice(0, WATERFALL_MAX_SPANS);
  const services = [...new Set(rows.map((row) => row.span.service))];
  const times = rows.map((row) => row.span).filter(timed);
  const start = Math.min(...times.map((span) => span.startMs));
  const end = Math.max(...times.map((span) => span.endMs));
  const total = times.length > 0 && end > start ? end - start : 1;
  const x = (ms: number) => BARS_FROM + ((ms - start) / total) * BARS_WIDTH;
  const height = AXIS + rows.length * ROW + 6;
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => {
    const at = BARS_FROM + share * BARS_WIDTH;
    const label = times.length > 0 ? formatMs(share * total) : '';
    return html`<line class="tick" x1="${at}" y1="${AXIS - 6}" x2="${at}" y2="${height}"></line><text class="axis" x="${at}" y="${AXIS - 10}" text-anchor="middle">${label}</text>`;
  });
  const drawn = rows.map(({ span, depth }, index) => {
    const y = AXIS + index * ROW;
    const service = `svc-${services.indexOf(span.service) % SERVICE_CLASSES}`;
    const failed = span.status.code === 'error';
    const indent = 6 + Math.min(depth, 12) * 12;
    const name = cut(span.name, Math.max(12, 54 - Math.min(depth, 12) * 2 - span.service.length));
    const status = failed
      ? `error${span.status.message ? `: ${redactText(span.status.message)}` : ''}`
      : 'ok';
    const title = `${span.service} · ${span.name} · ${spanDuration(span)} · ${status}`;
    let bar: SafeHtml | '' = '';
    if (timed(span)) {
      const left = x(span.startMs);
      const width = Math.max(1.5, (span.durationMs / total) * BARS_WIDTH);
      bar = html`<rect class="bar ${service}${failed ? ' failed' : ''}" x="${left.toFixed(1)}" y="${y + 4}" width="${width.toFixed(1)}" height="${ROW - 8}" rx="2"></rect><text class="duration" x="${(left + width + 4).toFixed(1)}" y="${y + 15}">${spanDuration(span)}</text>`;
    }
    return html`<g class="span${failed ? ' failed' : ''}"><title>${title}</title><rect class="row" x="0" y="${y}" width="${WIDTH}" height="${ROW}"></rect><text class="label" x="${indent}" y="${y + 15}"><tspan class="service ${service}">${span.service}</tspan> ${name}</text>${bar}</g>`;
  });
  return html`<svg class="waterfall" role="img" aria-label="${`Waterfall of ${rows.length} spans across ${services.length} services`}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg">${ticks}${drawn}</svg>`;
}
