import { trace } from '@opentelemetry/api';
import type { Logger } from '@switchboard/agent';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/index.ts';
import { startMemoryTracing } from './support/otel-memory.ts';

/** A pino destination that keeps the lines it receives. */
function lineSink(): { write: (line: string) => void; lines: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  return {
    write: (line) => {
      lines.push(line);
    },
    lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

const memory = startMemoryTracing();

describe('createLogger', () => {
  afterAll(() => memory.stop());

  it('adds trace_id and span_id of the active span, and only inside a span', () => {
    const sink = lineSink();
    const logger: Logger = createLogger({ serviceName: 'orders', destination: sink });
    logger.info({ step: 1 }, 'before');
    let ids = { traceId: '', spanId: '' };
    trace.getTracer('test').startActiveSpan('work', (span) => {
      ids = span.spanContext();
      logger.info({ step: 2 }, 'inside');
      span.end();
    });
    logger.info({ step: 3 }, 'after');
    const [before, inside, after] = sink.lines();
    expect(inside).toMatchObject({
      msg: 'inside',
      level: 'info',
      service: 'orders',
      step: 2,
      trace_id: ids.traceId,
      span_id: ids.spanId,
    });
    expect(ids.traceId).toMatch(/^[0-9a-f]{32}$/);
    for (const line of [before, after]) {
      expect(line).toBeDefined();
      expect(line).not.toHaveProperty('trace_id');
      expect(line).not.toHaveProperty('span_id');
    }
  });

  it('writes err with its stack and without secret shapes, and honours the level', () => {
    const sink = lineSink();
    const logger = createLogger({ serviceName: 'orders', level: 'warn', destination: sink });
    logger.info({}, 'dropped');
    logger.error({ err: new Error('upstream refused key sk-canary-1234567890abcdef') }, 'tool failed');
    const lines = sink.lines();
    expect(lines).toHaveLength(1);
    const err = lines[0]?.err as { type: string; message: string; stack: string };
    expect(err.type).toBe('Error');
    expect(err.message).toBe('upstream refused key [REDACTED]');
    expect(err.stack).toMatch(/logger\.test\.ts/);
    expect(JSON.stringify(lines[0])).not.toContain('sk-canary');
  });
});
