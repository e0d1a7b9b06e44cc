import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { TelemetryError } from './errors.ts';
import { SpanRecord, toSpanRecord } from './span-record.ts';

/** Where spans go when no OTLP endpoint is configured, relative to the working directory. */
export const DEFAULT_SPAN_FILE = '.switchboard/spans.jsonl';

/** Options of {@link SpanFileExporter}. */
export interface SpanFileExporterOptions {
  /** The JSON-lines file to append to; its directory is created on the first export. */
  path: string;
}

/**
 * A span exporter that appends one {@link SpanRecord} per line to a local file, for development
 * without a collector: `switchboard trace` reads it back. Put it behind a BatchSpanProcessor.
 *
 * @example
 * new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: new SpanFileExporter({ path }) })] });
 */
export class SpanFileExporter implements SpanExporter {
  readonly path: string;
  #pending: Promise<void> = Promise.resolve();
  #shutDown = false;

  constructor({ path }: SpanFileExporterOptions) {
    if (typeof path !== 'string' || path.trim() === '') {
      throw new TelemetryError('INVALID_OPTIONS', {
        message: 'SpanFileExporter needs a path, e.g. ".switchboard/spans.jsonl".',
      });
    }
    this.path = path;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.#shutDown) {
      resultCallback({
        code: ExportResultCode.FAILED,
        error: new Error('The span file exporter is shut down.'),
      });
      return;
    }
    const lines = spans.map((span) => `${JSON.stringify(toSpanRecord(span))}\n`).join('');
    // Writes are chained so lines of consecutive batches never interleave.
    const written = this.#pending.then(() => this.#append(lines));
    this.#pending = written.then(
      () => undefined,
      () => undefined,
    );
    written.then(
      () => resultCallback({ code: ExportResultCode.SUCCESS }),
      (error: unknown) =>
        resultCallback({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : undefined }),
    );
  }

  async #append(lines: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await appendFile(this.path, lines, 'utf8');
  }

  /** Waits for the writes under way. */
  forceFlush(): Promise<void> {
    return this.#pending;
  }

  /** Waits for the writes under way and refuses further exports. */
  shutdown(): Promise<void> {
    this.#shutDown = true;
    return this.#pending;
  }
}

/**
 * Reads a span file written by {@link SpanFileExporter}, in file order. Blank lines are skipped;
 * a line that is not a span record is an error naming the line.
 */
export async function readSpanFile(path: string): Promise<SpanRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'ENOENT';
    throw new TelemetryError(missing ? 'SPAN_FILE_NOT_FOUND' : 'SPAN_FILE_INVALID', {
      message: missing
        ? `No span file at ${path}. Run a service with telemetry and no OTLP endpoint, or give the right path.`
        : `Could not read the span file ${path}.`,
      cause: error,
    });
  }
  const spans: SpanRecord[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let parsed: ReturnType<typeof SpanRecord.safeParse> | undefined;
    try {
      parsed = SpanRecord.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) {
      throw new TelemetryError('SPAN_FILE_INVALID', {
        message: `Line ${index + 1} of ${path} is not a span record${parsed ? `: ${parsed.error.issues[0]?.message}` : ' (not JSON)'}.`,
      });
    }
    spans.push(parsed.data);
  }
  return spans;
}
