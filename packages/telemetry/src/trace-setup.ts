/**
 * The tracing part of the OpenTelemetry Node SDK, set up without `NodeSDK`: `NodeSDK` imports its
 * metrics and logs SDKs, their gRPC and protobuf exporters, Prometheus and its declarative
 * configuration (yaml) whatever is used: about 230 modules a service exporting traces only never
 * runs, 13 MB in a bare `node` and 5-7 MB of each service's idle RSS (bench `service-memory`). The same `OTEL_*` variables as
 * `NodeSDK`'s traces: the sampler, span limits, the batch processor's sizes, the propagators.
 */

import {
  context,
  DiagConsoleLogger,
  diag,
  propagation,
  type TextMapPropagator,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  diagLogLevelFromString,
  getNumberFromEnv,
  getStringFromEnv,
  getStringListFromEnv,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  type SpanLimits,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/** Propagators `OTEL_PROPAGATORS` may name here; another one (b3) needs `NodeSDK`. */
const PROPAGATORS: Readonly<Record<string, () => TextMapPropagator>> = {
  tracecontext: () => new W3CTraceContextPropagator(),
  baggage: () => new W3CBaggagePropagator(),
};

/** Whether the environment asks for something only `NodeSDK` sets up (a b3 propagator). */
export function needsNodeSdk(): boolean {
  const names = getStringListFromEnv('OTEL_PROPAGATORS') ?? [];
  return names.some((name) => name !== 'none' && !(name in PROPAGATORS));
}

/** `OTEL_TRACES_SAMPLER` (and `_ARG`), as `NodeSDK` reads it; undefined for the default. */
function samplerFromEnv(): Sampler | undefined {
  const name = getStringFromEnv('OTEL_TRACES_SAMPLER');
  const ratio = () => {
    const value = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
    return value !== undefined && value >= 0 && value <= 1 ? value : 1;
  };
  switch (name) {
    case undefined:
      return undefined;
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      diag.error(`unknown OTEL_TRACES_SAMPLER value "${name}", using default`);
      return undefined;
  }
}

/** The `OTEL_SPAN_*` and `OTEL_ATTRIBUTE_*` limits, as `NodeSDK` reads them. */
function spanLimitsFromEnv(): SpanLimits {
  const limits: SpanLimits = {
    attributeCountLimit:
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? getNumberFromEnv('OTEL_ATTRIBUTE_COUNT_LIMIT'),
    eventCountLimit: getNumberFromEnv('OTEL_SPAN_EVENT_COUNT_LIMIT'),
    linkCountLimit: getNumberFromEnv('OTEL_SPAN_LINK_COUNT_LIMIT'),
    attributePerEventCountLimit:
      getNumberFromEnv('OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT') ??
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT'),
    attributePerLinkCountLimit:
      getNumberFromEnv('OTEL_LINK_ATTRIBUTE_COUNT_LIMIT') ??
      getNumberFromEnv('OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT'),
  };
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined));
}

/** A positive `OTEL_BSP_*` number, else undefined (the processor's default). */
function positive(name: string): number | undefined {
  const value = getNumberFromEnv(name);
  return value !== undefined && value > 0 ? value : undefined;
}

/** A batch processor for `exporter` with the `OTEL_BSP_*` sizes, as `NodeSDK` makes one for a trace exporter. */
export function batchProcessorFromEnv(exporter: SpanExporter): SpanProcessor {
  const sizes = {
    maxQueueSize: positive('OTEL_BSP_MAX_QUEUE_SIZE'),
    scheduledDelayMillis: positive('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: positive('OTEL_BSP_EXPORT_TIMEOUT'),
    maxExportBatchSize: positive('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
  };
  return new BatchSpanProcessor({
    exporter,
    ...Object.fromEntries(Object.entries(sizes).filter(([, value]) => value !== undefined)),
  });
}

/**
 * Registers the global context manager (AsyncLocalStorage), propagator (`OTEL_PROPAGATORS`, default
 * W3C trace context and baggage) and tracer provider, as `NodeSDK.start()` does for traces; returns
 * the provider, whose `shutdown()` flushes the span processors.
 */
export function startTracing({
  resource,
  spanProcessors,
  sampler,
  spanLimits,
}: {
  resource: Resource;
  spanProcessors: SpanProcessor[];
  sampler: Sampler | undefined;
  spanLimits: SpanLimits;
}): TracerProvider {
  const logLevel = getStringFromEnv('OTEL_LOG_LEVEL');
  if (logLevel !== undefined) {
    diag.setLogger(new DiagConsoleLogger(), { logLevel: diagLogLevelFromString(logLevel) });
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const names = [...new Set(getStringListFromEnv('OTEL_PROPAGATORS') ?? ['tracecontext', 'baggage'])];
  if (!names.includes('none')) {
    const propagators = names.flatMap((name) => PROPAGATORS[name]?.() ?? []);
    if (propagators.length > 0) propagation.setGlobalPropagator(new CompositePropagator({ propagators }));
  }
  const chosen = sampler ?? samplerFromEnv();
  const provider = new TracerProvider({
    ...(chosen ? { sampler: chosen } : {}),
    spanLimits: { ...spanLimitsFromEnv(), ...spanLimits },
    resource,
    spanProcessors,
  });
  trace.setGlobalTracerProvider(provider);
  return provider;
}
