import {
  buildTraceTree,
  jaegerTraceUrl,
  readTrace,
  renderTraceTree,
  type SpanRecord,
} from '@switchboard/telemetry';
import { EXIT, type Output } from '../io/output.ts';
import { renderTraceCost, traceCostOf } from '../observe/trace-cost.ts';

/**
 * `switchboard trace <traceId|last>`: draws one trace as a tree, from the local span file (the
 * embedded default) or, with `--jaeger <url>`, from Jaeger's query API.
 */
export async function traceCommand({
  which,
  file,
  jaeger,
  output,
}: {
  which: string;
  file: string;
  jaeger: string | undefined;
  output: Output;
}): Promise<number> {
  const wantsLast = which === 'last';
  if (!wantsLast && !/^[0-9a-f]{32}$/i.test(which)) {
    output.err(`"${which}" is not a trace id: give the 32 hex digits of a trace id, or "last".`);
    return EXIT.usage;
  }
  if (jaeger && wantsLast) {
    output.err('"last" reads the local span file; with --jaeger give the trace id.');
    return EXIT.usage;
  }
  let spans: SpanRecord[];
  let traceId = which.toLowerCase();
  try {
    const read = await readTrace(jaeger ? { traceId, jaegerUrl: jaeger } : { traceId, spanFile: file });
    if (read.skipped.length > 0)
      output.err(
        skippedLines(
          file,
          read.skipped.map((entry) => entry.line),
        ),
      );
    traceId = read.traceId;
    spans = read.spans;
  } catch (error) {
    output.err(`Cannot read the trace: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.usage;
  }
  if (spans.length === 0) {
    output.err(
      wantsLast
        ? `No spans in ${file} yet. Run a request with the services writing spans there (the default without OTEL_EXPORTER_OTLP_ENDPOINT).`
        : `Trace ${traceId} has no spans in ${jaeger ?? file}.`,
    );
    return EXIT.problems;
  }
  const services = new Set(spans.map((span) => span.service));
  output.out(
    `Trace ${traceId}: ${spans.length} spans across ${services.size} services (${[...services].join(', ')})`,
  );
  for (const line of renderTraceTree(buildTraceTree(spans))) output.out(line);
  const cost = traceCostOf(spans);
  if (cost) for (const line of ['', ...renderTraceCost(cost)]) output.out(line);
  if (jaeger) output.out(`Open in Jaeger: ${jaegerTraceUrl({ jaegerUrl: jaeger, traceId })}`);
  return EXIT.ok;
}

/** The first line numbers listed when a span file has damaged lines. */
const LISTED_LINES = 10;

/** `Skipped 2 damaged lines of <file> (lines 2, 3); …`: a damaged line hides no other trace. */
function skippedLines(file: string, lines: readonly number[]): string {
  const listed = lines.slice(0, LISTED_LINES).join(', ');
  const more = lines.length > LISTED_LINES ? `, and ${lines.length - LISTED_LINES} more` : '';
  const count = lines.length === 1 ? '1 damaged line' : `${lines.length} damaged lines`;
  return `Skipped ${count} of ${file} (line${lines.length === 1 ? '' : 's'} ${listed}${more}); the trace may miss their spans.`;
}
