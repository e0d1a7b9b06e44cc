import { AgentCost, COST_FIGURES, costOf, type RequestCost } from '@switchboard/agent';
import { inert } from '@switchboard/protocol';
import { SWITCHBOARD } from '@switchboard/semconv';
import type { SpanRecord } from '@switchboard/telemetry';

/** A request's cost as a trace records it, and the span that records it. */
export interface TraceCost {
  /** The span the cost was read from: the one nearest the trace's root that records one. */
  span: SpanRecord;
  cost: RequestCost;
  /** Entries of the span's per-agent list that did not parse, left out of the table. */
  skipped: number;
}

/**
 * The cost of the request a trace shows: read from the span nearest the root that carries
 * `switchboard.cost.agents` (a `switchboard ask` command's root span, else the supervisor's SERVER
 * span; the spans of each hop below hold only its own subtree). Undefined when no span carries one
 * (spans from before costs were recorded, or a request whose run never started).
 */
export function traceCostOf(spans: readonly SpanRecord[]): TraceCost | undefined {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const depth = (span: SpanRecord) => {
    let n = 0;
    for (let at = span; at.parentSpanId && n < spans.length; n++) {
      const parent = byId.get(at.parentSpanId);
      if (!parent) break;
      at = parent;
    }
    return n;
  };
  const costed = spans
    .filter((span) => span.attributes[SWITCHBOARD.costAgents] !== undefined)
    .map((span) => ({ span, depth: depth(span) }))
    .sort((a, b) => a.depth - b.depth || a.span.startMs - b.span.startMs);
  const first = costed[0]?.span;
  if (!first) return undefined;
  const raw = first.attributes[SWITCHBOARD.costAgents];
  const listed = Array.isArray(raw) ? raw : [raw];
  const entries: AgentCost[] = [];
  for (const item of listed) {
    const parsed = AgentCost.safeParse(parseJson(item));
    if (parsed.success) entries.push(parsed.data);
  }
  return { span: first, cost: costOf(entries), skipped: listed.length - entries.length };
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const COLUMNS = ['tokens in', 'tokens out', 'model ms', 'tool ms', 'queue ms', 'hops'] as const;

/**
 * The cost table `switchboard trace` prints under the tree: one line per agent, then the total.
 *
 * @example
 * // Cost of the request (supervisor, SendStreamingMessage):
 * // agent       tokens in  tokens out  model ms  tool ms  queue ms  hops
 * // supervisor        230          16        41       37         2     1
 * // orders             90          13        12        1         3     1
 * // total             320          29        53       38         5     2
 */
export function renderTraceCost({ span, cost, skipped }: TraceCost): string[] {
  const rows = [
    ...cost.agents.map((entry) => ({ name: inert(entry.agent), figures: entry })),
    { name: 'total', figures: cost.total },
  ].map(({ name, figures }) => [name, ...COST_FIGURES.map((key) => String(figures[key]))]);
  const table = [['agent', ...COLUMNS], ...rows];
  const widths =
    table[0]?.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = table.map((row) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
  const note =
    skipped > 0
      ? [`(${skipped} per-agent entr${skipped === 1 ? 'y' : 'ies'} of the span did not parse, left out)`]
      : [];
  return [`Cost of the request (${inert(span.service)}, ${inert(span.name)}):`, ...lines, ...note];
}
