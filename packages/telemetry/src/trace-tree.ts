import { A2A, COMMON, GEN_AI, MESSAGING } from '@switchboard/semconv';
import { hasTimes, type SpanRecord, type SpanRecordAttributeValue } from './span-record.ts';

/** A span with its children, ordered by start time. */
export interface TraceNode {
  span: SpanRecord;
  children: TraceNode[];
}

/** Spans arranged by parentage. A span whose parent is not among the spans is a root. */
export interface TraceTree {
  roots: TraceNode[];
}

/** Options of {@link renderTraceTree}. */
export interface RenderTraceTreeOptions {
  /** Cut every line to this many characters (e.g. the terminal's columns). Default: no cut. */
  width?: number;
}

/** The attributes a rendered line shows, in this order when the span has them, with their short labels. */
export const TRACE_TREE_ATTRIBUTES: readonly { key: string; label: string }[] = [
  { key: COMMON.errorType, label: 'error' },
  { key: GEN_AI.usageInputTokens, label: 'tokens.in' },
  { key: GEN_AI.usageOutputTokens, label: 'tokens.out' },
  { key: GEN_AI.responseFinishReasons, label: 'finish' },
  { key: GEN_AI.toolCallId, label: 'call' },
  { key: A2A.taskId, label: 'task' },
  { key: A2A.taskState, label: 'state' },
  { key: MESSAGING.messageId, label: 'message' },
];

/**
 * Arranges spans (of one trace or several) into trees by parent span id, children by start time.
 *
 * @example
 * const spans = (await readSpanFile(path)).filter((span) => span.traceId === lastTraceId(all));
 * console.log(renderTraceTree(buildTraceTree(spans)).join('\n'));
 */
export function buildTraceTree(spans: readonly SpanRecord[]): TraceTree {
  const key = (traceId: string, spanId: string) => `${traceId}/${spanId}`;
  const nodes = new Map<string, TraceNode>();
  for (const span of spans) nodes.set(key(span.traceId, span.spanId), { span, children: [] });
  const roots: TraceNode[] = [];
  for (const node of nodes.values()) {
    const { traceId, parentSpanId } = node.span;
    const parent = parentSpanId === undefined ? undefined : nodes.get(key(traceId, parentSpanId));
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  // Spans without times (a source may omit them) come after their timed siblings, in source order.
  const byStart = (a: TraceNode, b: TraceNode) =>
    Number(!hasTimes(a.span)) - Number(!hasTimes(b.span)) || a.span.startMs - b.span.startMs;
  for (const node of nodes.values()) node.children.sort(byStart);
  roots.sort(byStart);
  return { roots };
}

interface Row {
  label: string;
  service: string;
  duration: string;
  status: string;
  details: string;
}

/**
 * Renders a trace tree as text lines: the tree of span names, then aligned columns with the
 * service, the duration in ms (`? ms` when the source gave no times), `ok` or `ERROR` (with our
 * error message), the key attributes ({@link TRACE_TREE_ATTRIBUTES}) and the backend's warnings.
 *
 * @example
 * // invoke_agent orders               orders  148 ms  ok
 * // ├─ execute_tool track_parcel      orders  2.5 ms  ERROR  "Parcel tracking is down." error=TOOL_FAILED
 * // └─ chat gpt-4.1-mini              orders  127 ms  ok     tokens.in=80 tokens.out=25 finish=stop
 */
export function renderTraceTree(tree: TraceTree, { width }: RenderTraceTreeOptions = {}): string[] {
  const rows: Row[] = [];
  const visit = (node: TraceNode, lead: string, branch: string, seen: Set<TraceNode>) => {
    if (seen.has(node)) return;
    seen.add(node);
    rows.push(toRow(node.span, lead + branch));
    const continued = lead + (branch === '├─ ' ? '│  ' : branch === '' ? '' : '   ');
    node.children.forEach((child, index) => {
      visit(child, continued, index === node.children.length - 1 ? '└─ ' : '├─ ', seen);
    });
  };
  for (const root of tree.roots) visit(root, '', '', new Set());
  const widest = (pick: (row: Row) => string) => Math.max(0, ...rows.map((row) => pick(row).length));
  const [labelWidth, serviceWidth, durationWidth] = [
    widest((row) => row.label),
    widest((row) => row.service),
    widest((row) => row.duration),
  ];
  return rows.map((row) => {
    const line = [
      row.label.padEnd(labelWidth),
      row.service.padEnd(serviceWidth),
      row.duration.padStart(durationWidth),
      row.status.padEnd(5),
      row.details,
    ]
      .join('  ')
      .trimEnd();
    return width !== undefined && width > 1 && line.length > width ? `${line.slice(0, width - 1)}…` : line;
  });
}

function toRow(span: SpanRecord, label: string): Row {
  const failed = span.status.code === 'error';
  const details = TRACE_TREE_ATTRIBUTES.flatMap(({ key, label }) => {
    const value = span.attributes[key];
    return value === undefined ? [] : [`${label}=${formatValue(value)}`];
  });
  if (failed && span.status.message) details.unshift(JSON.stringify(span.status.message));
  for (const warning of span.warnings ?? []) details.push(`warning=${formatValue(warning)}`);
  return {
    label: `${label}${span.name}`,
    service: span.service,
    duration: hasTimes(span) ? `${formatMs(span.durationMs)} ms` : '? ms',
    status: failed ? 'ERROR' : 'ok',
    details: details.join(' '),
  };
}

function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

function formatValue(value: SpanRecordAttributeValue): string {
  const text = Array.isArray(value) ? value.join(',') : String(value);
  return /[\s"]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * The id of the latest trace among the spans: the trace whose root (a span without a parent among
 * them) started last; `undefined` when there are no spans.
 */
export function lastTraceId(spans: readonly SpanRecord[]): string | undefined {
  const { roots } = buildTraceTree(spans);
  let latest: SpanRecord | undefined;
  for (const { span } of roots) if (!latest || span.startMs >= latest.startMs) latest = span;
  return latest?.traceId;
}
