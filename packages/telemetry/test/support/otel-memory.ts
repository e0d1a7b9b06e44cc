import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/** A registered tracer provider (AsyncLocalStorage context, W3C propagation) that keeps spans in memory. */
export function startMemoryTracing(): {
  exporter: InMemorySpanExporter;
  provider: NodeTracerProvider;
  spans: () => ReadableSpan[];
  stop: () => Promise<void>;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register();
  return {
    exporter,
    provider,
    spans: () => exporter.getFinishedSpans(),
    stop: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** Everything a span carries, as one string: to check that a secret appears nowhere in it. */
export function everythingIn(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    status: span.status,
    links: span.links,
  });
}
