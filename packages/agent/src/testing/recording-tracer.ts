import { AsyncLocalStorage } from 'node:async_hooks';
import type { AgentSpan, AgentSpanSpec, AgentTracer, SpanAttributes } from '../observe/tracer.ts';

/** A span as {@link RecordingTracer} kept it. */
export interface RecordedSpan {
  name: string;
  operation: AgentSpanSpec['operation'];
  attributes: SpanAttributes;
  /** The enclosing span's name, if any. */
  parent: string | undefined;
  error?: { type: string; message: string };
  /** What the runtime offered as content (a real tracer drops it unless content capture is on). */
  offeredContent: Record<string, unknown>;
  ended: boolean;
}

/** A tracer that records spans in memory, with their nesting, so tests can assert on them. */
export class RecordingTracer implements AgentTracer {
  readonly spans: RecordedSpan[] = [];
  readonly #current = new AsyncLocalStorage<RecordedSpan>();

  async inSpan<T>(spec: AgentSpanSpec, fn: (span: AgentSpan) => Promise<T>): Promise<T> {
    const recorded: RecordedSpan = {
      name: spec.name,
      operation: spec.operation,
      attributes: { ...spec.attributes },
      parent: this.#current.getStore()?.name,
      offeredContent: {},
      ended: false,
    };
    this.spans.push(recorded);
    const span: AgentSpan = {
      setAttributes: (attributes) => Object.assign(recorded.attributes, attributes),
      setError: (type, message) => {
        recorded.error = { type, message };
      },
      offerContent: (content) => Object.assign(recorded.offeredContent, content),
    };
    try {
      return await this.#current.run(recorded, () => fn(span));
    } finally {
      recorded.ended = true;
    }
  }
}
