import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { AgentSpan, AgentSpanSpec, AgentTracer, SpanAttributes } from '@switchboard/agent';
import { redactText } from '@switchboard/agent';
import { COMMON, ERROR_TYPE_OTHER } from '@switchboard/semconv';
import { contentAttribute, DEFAULT_MAX_CONTENT_LENGTH } from './content-attribute.ts';
import { TelemetryError } from './errors.ts';

/** Options of {@link createAgentTracer}. */
export interface AgentTracerOptions {
  /** The OpenTelemetry tracer to open spans with. Default: `trace.getTracer('switchboard')`. */
  tracer?: Tracer;
  /**
   * Record prompts, model output and tool arguments/results offered by the runtime as span
   * attributes (redacted, cut to `maxContentLength`). Default false: content is dropped.
   */
  captureContent?: boolean;
  /** Longest content attribute value, in characters (default 4096). */
  maxContentLength?: number;
}

/**
 * Adapts the agent runtime's tracing port to OpenTelemetry. Spans are opened with `startActiveSpan`,
 * so nested work (a tool inside an agent, an HTTP call inside a tool) becomes a child. `chat` spans
 * are CLIENT, `invoke_agent` and `execute_tool` spans INTERNAL. Errors become status ERROR with our
 * sanitised message and `error.type`; no exception events, no stacks (those go to the logs).
 *
 * @example
 * const tracer = createAgentTracer({ captureContent: false });
 * await runAgent({ agent, model, input, tracer });
 */
export function createAgentTracer({
  tracer = trace.getTracer('switchboard'),
  captureContent = false,
  maxContentLength = DEFAULT_MAX_CONTENT_LENGTH,
}: AgentTracerOptions = {}): AgentTracer {
  if (!Number.isInteger(maxContentLength) || maxContentLength < 16) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `maxContentLength must be a whole number of at least 16 (got ${maxContentLength}).`,
    });
  }
  return {
    inSpan<T>(spec: AgentSpanSpec, fn: (span: AgentSpan) => Promise<T>): Promise<T> {
      const kind = spec.operation === 'chat' ? SpanKind.CLIENT : SpanKind.INTERNAL;
      const options = { kind, attributes: toOtelAttributes(spec.attributes) };
      return tracer.startActiveSpan(spec.name, options, async (span) => {
        const state = { failed: false };
        try {
          return await fn(adapt({ span, state, captureContent, maxContentLength }));
        } catch (error) {
          // The runtime marks the failures it knows; anything else gets a type, never the raw message.
          if (!state.failed) markFailed(span, errorTypeOf(error), errorTypeOf(error));
          throw error;
        } finally {
          span.end();
        }
      });
    },
  };
}

function adapt({
  span,
  state,
  captureContent,
  maxContentLength,
}: {
  span: Span;
  state: { failed: boolean };
  captureContent: boolean;
  maxContentLength: number;
}): AgentSpan {
  return {
    setAttributes: (attributes) => span.setAttributes(toOtelAttributes(attributes)),
    setError: (errorType, message) => {
      state.failed = true;
      markFailed(span, errorType, message);
    },
    offerContent: (content) => {
      if (!captureContent) return;
      for (const [key, value] of Object.entries(content)) {
        if (value === undefined) continue;
        span.setAttribute(key, contentAttribute({ value, maxLength: maxContentLength }));
      }
    },
  };
}

function markFailed(span: Span, errorType: string, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: redactText(message) });
  span.setAttribute(COMMON.errorType, errorType);
}

function errorTypeOf(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === 'string' && /^[\w.-]{1,64}$/.test(code)) return code;
    if (typeof name === 'string' && /^[\w.-]{1,64}$/.test(name)) return name;
  }
  return ERROR_TYPE_OTHER;
}

/** The port's attributes as OpenTelemetry attributes: undefined values dropped, arrays copied. */
export function toOtelAttributes(attributes: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'object' ? [...value] : value;
  }
  return out;
}
