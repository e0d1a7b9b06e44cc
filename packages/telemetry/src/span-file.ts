import { mkdir, open, readFile } from 'node:fs/promises';
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

  /**
   * Appends a batch of whole lines with one write(2) on a file opened for appending (O_APPEND), not
   * `appendFile`, which writes in 512 KiB pieces: other processes (every service of `switchboard
   * dev` writes to the same file) then put their lines between the pieces, and both lines break.
   * On a local file system one append write lands whole at the end, whatever other writers do, so
   * no lock is needed; a rare short write is finished with the rest.
   */
  async #append(lines: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const handle = await open(this.path, 'a');
    try {
      const bytes = Buffer.from(lines, 'utf8');
      let written = 0;
      while (written < bytes.length) {
        written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
      }
    } finally {
      await handle.close();
    }
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

/** A line of a span file that holds no span record (a write that broke off, a hand edit). */
export interface SkippedSpanLine {
  /** Its line number, from 1. */
  line: number;
  /** Why: `not JSON`, or the first schema problem. */
  reason: string;
}

/** What {@link scanSpanFile} read: the spans, in file order, and the lines it skipped. */
export interface SpanFileScan {
  spans: SpanRecord[];
  skipped: SkippedSpanLine[];
}

/**
 * Reads a span file written by {@link SpanFileExporter}, in file order, skipping (and listing) each
 * line that is not a span record, so one damaged line does not hide every trace in the file. Blank
 * lines are skipped silently.
 *
 * @example
 * const { spans, skipped } = await scanSpanFile('.switchboard/spans.jsonl');
 * if (skipped.length > 0) console.error(`skipped ${skipped.length} damaged lines`);
 */
export async function scanSpanFile(path: string): Promise<SpanFileScan> {
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
  const skipped: SkippedSpanLine[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    let parsed: ReturnType<typeof SpanRecord.safeParse> | undefined;
    try {
      parsed = SpanRecord.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) spans.push(parsed.data);
    else
      skipped.push({
        line: index + 1,
        reason: parsed ? (parsed.error.issues[0]?.message ?? 'not a span') : 'not JSON',
      });
  }
  return { spans, skipped };
}

/**
 * Reads a span file written by {@link SpanFileExporter}, in file order. Blank lines are skipped;
 * a line that is not a span record is an error naming the line (see {@link scanSpanFile} to skip
 * such lines instead).
 */
export async function readSpanFile(path: string): Promise<SpanRecord[]> {
  const { spans, skipped } = await scanSpanFile(path);
  const [first] = skipped;
  if (first) {
    throw new TelemetryError('SPAN_FILE_INVALID', {
      message: `Line ${first.line} of ${path} is not a span record${first.reason === 'not JSON' ? ' (not JSON)' : `: ${first.reason}`}.`,
    });
  }
  return spans;
}
