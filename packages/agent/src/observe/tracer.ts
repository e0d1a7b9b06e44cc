import type { GenAiOperation } from '@switchboard/semconv';

/** Attribute values a span accepts. */
export type SpanAttributeValue = string | number | boolean | readonly string[];
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;

/** The span kinds the runtime opens, named as in the OpenTelemetry GenAI conventions. */
export type AgentSpanOperation = GenAiOperation;

/** What the runtime asks a tracer to open. */
export interface AgentSpanSpec {
  operation: AgentSpanOperation;
  /** The span name, e.g. `invoke_agent orders`, `chat gpt-4.1-mini`, `execute_tool get_order`. */
  name: string;
  attributes: SpanAttributes;
}

/** An open span. */
export interface AgentSpan {
  setAttributes(attributes: SpanAttributes): void;
  /**
   * Marks the span failed. `message` is always one we wrote (sanitised): raw errors and stacks go to
   * the logger only.
   */
  setError(errorType: string, message: string): void;
  /**
   * Offers content: prompts, model output, tool arguments and results, keyed by their GenAI
   * attribute names. A tracer records it only when content capture is switched on, and redacted;
   * by default it is dropped.
   */
  offerContent?(content: Record<string, unknown>): void;
}

/**
 * The small tracing port of the agent runtime. `@switchboard/telemetry` adapts it to OpenTelemetry;
 * `inSpan` runs `fn` with the span active so nested spans (a tool inside an agent) become children.
 */
export interface AgentTracer {
  inSpan<T>(spec: AgentSpanSpec, fn: (span: AgentSpan) => Promise<T>): Promise<T>;
}

/** A tracer that records nothing; the default. */
export function noopTracer(): AgentTracer {
  const span: AgentSpan = { setAttributes: () => {}, setError: () => {} };
  return { inSpan: (_spec, fn) => fn(span) };
}
