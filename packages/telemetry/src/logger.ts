import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { redactValue } from '@switchboard/agent';
import { type DestinationStream, type Level, type Logger as PinoLogger, pino, stdSerializers } from 'pino';
import { TelemetryError } from './errors.ts';

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Written as `service` on every line. */
  serviceName: string;
  /** The lowest level written (default `info`). */
  level?: Level;
  /** Where lines go (default: stdout). */
  destination?: DestinationStream;
}

/**
 * A pino logger writing JSON lines, which satisfies the agent runtime's `Logger` port. Every line
 * written inside a span carries its `trace_id` and `span_id`, so logs and traces join up. An `err`
 * field is written with its stack (logs are where stacks go), redacted of secret shapes.
 *
 * @example
 * const logger = createLogger({ serviceName: 'orders' });
 * logger.error({ err, tool: 'get_order' }, 'tool failed');
 */
export function createLogger({ serviceName, level = 'info', destination }: CreateLoggerOptions): PinoLogger {
  if (typeof serviceName !== 'string' || serviceName.trim() === '') {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: 'createLogger needs a serviceName, e.g. "orders".',
    });
  }
  const options = {
    level,
    base: { service: serviceName },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    serializers: { err: serializeError },
    mixin: traceFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

function traceFields(): Record<string, string> {
  const spanContext = trace.getSpan(context.active())?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  // Message, stack (with causes) and any extra fields, with secret shapes removed.
  return redactValue(stdSerializers.err(error));
}
