import { redactText } from '@switchboard/agent';
import { jaegerTraceUrl, type SpanRecord, TRACE_TREE_ATTRIBUTES } from '@switchboard/telemetry/trace';
import { html } from '../html/html.ts';
import {
  formatMs,
  spanDuration,
  WATERFALL_MAX_SPANS,
  waterfallRows,
  waterfallSvg,
} from '../html/waterfall-svg.ts';
import type { RequestTrace, TraceView } from '../trace-view.ts';

/** Why a trace page has nothing to draw when the console was given no trace reader. */
export const NO_TRACE_SOURCE =
  'This console reads no traces: the service gives it its span file (SWITCHBOARD_SPAN_FILE, without OTEL_EXPORTER_OTLP_ENDPOINT) or Jaeger (SWITCHBOARD_JAEGER_URL).';

/** An attribute's value as text, with secret shapes (bearer tokens, API keys, passwords) redacted. */
const attributeText = (value: SpanRecord['attributes'][string]) =>
  redactText(Array.isArray(value) ? value.join(', ') : String(value));

/** The key attributes of a span in a line (`tokens.in=80 task=…`), as `switchboard trace` shows them. */
function keyAttributes(span: SpanRecord): string {
  return TRACE_TREE_ATTRIBUTES.flatMap(({ key, label }) => {
    const value = span.attributes[key];
    return value === undefined ? [] : [`${label}=${attributeText(value)}`];
  }).join(' ');
}

function spanTable(spans: readonly SpanRecord[]) {
  const rows = waterfallRows(spans).slice(0, WATERFALL_MAX_SPANS);
  const start = Math.min(...rows.map(({ span }) => span.startMs).filter((ms) => ms > 0));
  const body = rows.map(({ span, depth }) => {
    const failed = span.status.code === 'error';
    const attributes = Object.entries(span.attributes).map(
      ([key, value]) => html`<dt>${key}</dt><dd>${attributeText(value)}</dd>`,
    );
    return html`<tr class="${failed ? 'failed' : ''}">
  <td>${span.service}</td>
  <td class="span-name depth-${Math.min(depth, 8)}">${span.name} <small>${span.kind}</small></td>
  <td>${span.startMs > 0 && Number.isFinite(start) ? `+${formatMs(span.startMs - start)}` : '?'}</td>
  <td>${spanDuration(span)}</td>
  <td>${failed ? html`<b>error</b>${span.status.message ? html` ${redactText(span.status.message)}` : ''}` : 'ok'}${(span.warnings ?? []).map((warning) => html`<br><small>warning: ${warning}</small>`)}</td>
  <td>${keyAttributes(span)}${attributes.length > 0 ? html`<details><summary>${attributes.length} attributes</summary><dl>${attributes}</dl></details>` : ''}</td>
</tr>`;
  });
  return html`<table class="spans"><thead><tr><th>Service</th><th>Span</th><th>Starts</th><th>Duration</th><th>Status</th><th>Attributes</th></tr></thead><tbody>${body}</tbody></table>`;
}

function oneTrace({ traceId, spans }: RequestTrace, jaegerUiUrl: string | undefined) {
  const services = [...new Set(spans.map((span) => span.service))];
  const failed = spans.filter((span) => span.status.code === 'error').length;
  const more = spans.length > WATERFALL_MAX_SPANS ? ` (the first ${WATERFALL_MAX_SPANS} drawn)` : '';
  const jaeger = jaegerUiUrl
    ? html` · <a href="${jaegerTraceUrl({ jaegerUrl: jaegerUiUrl, traceId })}" rel="noreferrer">Open in Jaeger</a>`
    : '';
  return html`<section class="trace">
<h2>Trace <code>${traceId}</code></h2>
<p>${spans.length} spans${more} across ${services.length} services (${services.join(', ')})${failed > 0 ? html`, <b>${failed} failed</b>` : ''}${jaeger}</p>
${waterfallSvg(spans)}
${spanTable(spans)}
</section>`;
}

/**
 * A request's traces (or one trace by its id): for each (the request, each resumption after an
 * approval), its spans as a waterfall across services, then a table of them with their status and
 * attributes (inert text), and a link to Jaeger's UI when the console knows it.
 */
export function tracePage({
  base,
  taskId,
  view,
  traces,
}: {
  base: string;
  /** The request whose traces these are; none for a trace asked for by its id. */
  taskId?: string | undefined;
  view: TraceView | undefined;
  traces: readonly RequestTrace[];
}) {
  const back = taskId
    ? html`<p><a href="${base}/requests/${encodeURIComponent(taskId)}">Back to the request</a></p>`
    : '';
  if (!view) return html`${back}<p class="notice problem">${NO_TRACE_SOURCE}</p>`;
  const drawn = traces.filter((trace) => trace.spans.length > 0);
  if (drawn.length === 0) {
    const what = taskId ? `names task ${taskId}` : `holds trace ${traces[0]?.traceId ?? ''}`;
    return html`${back}<p class="empty">No trace in ${view.source} ${what} yet. Services send their spans in batches (up to 5 s): reload shortly.</p>`;
  }
  return html`${back}<p class="hint">Read from ${view.source}.</p>${drawn.map((trace) => oneTrace(trace, view.jaegerUiUrl))}`;
}
