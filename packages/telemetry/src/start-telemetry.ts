import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { context, ProxyTracerProvider, propagation, type TracerProvider, trace } from '@opentelemetry/api';
import { getBooleanFromEnv } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, type Sampler, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { type AgentTracer, redactText } from '@switchboard/agent';
import { COMMON, RESOURCE } from '@switchboard/semconv';
import { createAgentTracer } from './agent-tracer.ts';
import { TelemetryError } from './errors.ts';
import { DEFAULT_SPAN_FILE, SpanFileExporter } from './span-file.ts';
import { batchProcessorFromEnv, needsNodeSdk, startTracing } from './trace-setup.ts';

/** Options of {@link startTelemetry}. */
export interface StartTelemetryOptions {
  /** `service.name`: one per agent service, so A2A hops show as service-to-service edges. */
  serviceName: string;
  serviceVersion: string;
  /** `deployment.environment.name`, e.g. `development`, `production`. */
  environment: string;
  /** `service.instance.id`: unique per process (pod name, or a UUID). */
  instanceId: string;
  /**
   * OTLP/HTTP base URL, e.g. `http://localhost:4318` for Jaeger; `/v1/traces` is appended. Without
   * it spans go to the local span file.
   */
  otlpEndpoint?: string;
  /**
   * Longest an OTLP export may take, retries included, in ms. Default: the exporter's
   * (`OTEL_EXPORTER_OTLP_TIMEOUT`, else 10 s). A short-lived process such as the CLI sets less, so
   * that an unreachable collector does not hold its exit.
   */
  exportTimeoutMs?: number;
  /** The span file used without an OTLP endpoint (default `.switchboard/spans.jsonl` under the cwd). */
  spanFile?: string;
  /** Record prompts, model output and tool arguments/results, redacted (default false). */
  captureContent?: boolean;
  /** HTTP server and client spans, `traceparent` in and out, for `http` and `fetch` (default true). */
  instrumentHttp?: boolean;
  /** Default: the SDK's (`OTEL_TRACES_SAMPLER`, else parent-based always-on). */
  sampler?: Sampler;
  /** Jaeger UI base URL, e.g. `http://localhost:16686`, for {@link Telemetry.traceUrl}. */
  jaegerUiUrl?: string;
  /**
   * Also export metrics and logs through the SDK's environment-driven defaults (`OTEL_METRICS_EXPORTER`,
   * `OTEL_LOGS_EXPORTER`). Default false: Switchboard emits traces only, and the SDK's defaults would
   * otherwise push metrics to localhost:4318 whatever `otlpEndpoint` says.
   */
  exportMetricsAndLogs?: boolean;
  /**
   * Longest value of one span attribute, in characters (default 1024, {@link DEFAULT_MAX_ATTRIBUTE_LENGTH});
   * longer string values are cut to it, so what a caller sends (an id, a query) cannot make a span,
   * and the spans kept for days, as large as the request. Overrides `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT`.
   */
  maxAttributeLength?: number;
}

/** The default longest span attribute value, in characters. */
export const DEFAULT_MAX_ATTRIBUTE_LENGTH = 1024;

/** A started OpenTelemetry SDK. */
export interface Telemetry {
  /** The agent runtime's tracer port, backed by this SDK. */
  tracer: AgentTracer;
  /** The absolute path of the span file when spans go there, else undefined. */
  spanFile: string | undefined;
  /** The Jaeger UI link of a trace, when `jaegerUiUrl` was given. */
  traceUrl(traceId: string): string | undefined;
  /** Flushes batched spans and stops the SDK; safe to call more than once. Always await it. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing for one Switchboard process: resource attributes, a
 * BatchSpanProcessor exporting OTLP/HTTP (or to a local span file), W3C propagation and HTTP/fetch
 * instrumentation; the tracing parts of the Node SDK, set up without `NodeSDK` (which is imported
 * only for `exportMetricsAndLogs`, or for a b3 propagator named in `OTEL_PROPAGATORS`). The SDK's own `OTEL_*` variables keep working (sampler, headers, batch sizes of
 * the OTLP export, `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_SDK_DISABLED`). Call it before the process does
 * its work.
 *
 * @example
 * const telemetry = await startTelemetry({ serviceName: 'orders', serviceVersion: '0.1.0',
 *   environment: 'development', instanceId: randomUUID(), otlpEndpoint: 'http://localhost:4318' });
 * await runAgent({ agent, model, input, tracer: telemetry.tracer });
 * await telemetry.shutdown();
 */
export async function startTelemetry(options: StartTelemetryOptions): Promise<Telemetry> {
  const { serviceName, serviceVersion, environment, instanceId, otlpEndpoint, jaegerUiUrl } = options;
  const { spanFile = DEFAULT_SPAN_FILE, captureContent = false, instrumentHttp = true, sampler } = options;
  const { exportMetricsAndLogs = false, exportTimeoutMs } = options;
  const { maxAttributeLength = DEFAULT_MAX_ATTRIBUTE_LENGTH } = options;
  const required = { serviceName, serviceVersion, environment, instanceId, spanFile };
  for (const [name, value] of Object.entries(required)) {
    if (typeof value !== 'string' || value.trim() === '') {
      throw new TelemetryError('INVALID_OPTIONS', {
        message: `startTelemetry needs ${name} as a non-empty string (got ${JSON.stringify(value)}).`,
      });
    }
  }
  if (exportTimeoutMs !== undefined && !(Number.isInteger(exportTimeoutMs) && exportTimeoutMs > 0)) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `exportTimeoutMs must be a whole number of milliseconds above 0 (got ${exportTimeoutMs}).`,
    });
  }
  if (!(Number.isInteger(maxAttributeLength) && maxAttributeLength >= 32)) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `maxAttributeLength must be a whole number of characters, at least 32 (got ${maxAttributeLength}).`,
    });
  }
  const tracesUrl = otlpEndpoint === undefined ? undefined : toTracesUrl(otlpEndpoint);
  const uiBase =
    jaegerUiUrl === undefined ? undefined : checkUrl('jaegerUiUrl', jaegerUiUrl).replace(/\/+$/, '');
  const filePath = tracesUrl ? undefined : resolve(spanFile);
  if (filePath) await mkdir(dirname(filePath), { recursive: true });
  const traces = tracesUrl
    ? // Handed to the SDK as an exporter, so its batch processor reads the OTEL_BSP_* variables.
      {
        traceExporter: new OTLPTraceExporter({
          url: tracesUrl,
          ...(exportTimeoutMs === undefined ? {} : { timeoutMillis: exportTimeoutMs }),
        }),
      }
    : // A local span file is read by `switchboard trace last` right after a request: flush it quickly.
      {
        spanProcessors: [
          new BatchSpanProcessor({
            exporter: new SpanFileExporter({ path: filePath ?? DEFAULT_SPAN_FILE }),
            scheduledDelayMillis: 200,
          }),
        ],
      };
  const instrumentations = instrumentHttp
    ? [new HttpInstrumentation(), new UndiciInstrumentation({ startSpanHook: redactedUrl })]
    : [];
  // The SDK would merge what it detects over the given resource, a random service.instance.id among
  // it: detect here, without that detector, so that the identity we are given wins.
  const resource = defaultResource()
    .merge(detectResources({ detectors: [processDetector, hostDetector, osDetector, envDetector] }))
    .merge(
      resourceFromAttributes({
        [RESOURCE.serviceName]: serviceName,
        [RESOURCE.serviceVersion]: serviceVersion,
        [RESOURCE.serviceInstanceId]: instanceId,
        [RESOURCE.deploymentEnvironmentName]: environment,
      }),
    );
  const spanLimits = { attributeValueLengthLimit: maxAttributeLength };
  const delegateBefore = tracerDelegate();
  let stopSdk: () => Promise<void>;
  if (exportMetricsAndLogs || needsNodeSdk()) {
    // Metrics, logs or a b3 propagator: the whole NodeSDK, imported only then (230 modules more).
    const { NodeSDK } = await import('@opentelemetry/sdk-node');
    const sdk = new NodeSDK({
      autoDetectResources: false,
      resource,
      ...traces,
      ...(exportMetricsAndLogs ? {} : { metricReaders: [], logRecordProcessors: [] }),
      instrumentations,
      ...(sampler ? { sampler } : {}),
      spanLimits,
    });
    sdk.start();
    stopSdk = () => sdk.shutdown();
  } else if (getBooleanFromEnv('OTEL_SDK_DISABLED')) {
    stopSdk = async () => {};
  } else {
    // Traces only: the tracer provider, context manager and propagator NodeSDK would register.
    // The instrumentations enabled themselves when made, on the global (proxy) tracer provider.
    const spanProcessors: SpanProcessor[] = traces.traceExporter
      ? [batchProcessorFromEnv(traces.traceExporter)]
      : (traces.spanProcessors ?? []);
    const provider = startTracing({ resource, spanProcessors, sampler, spanLimits });
    stopSdk = () => provider.shutdown();
  }
  // Whether the SDK registered the globals (it does not when OTEL_SDK_DISABLED is set).
  const ownsGlobals = tracerDelegate() !== delegateBefore;
  // Core modules loaded before start are patched on their next require: make that happen now.
  if (instrumentHttp) for (const name of ['node:http', 'node:https']) createRequire(import.meta.url)(name);
  let stopping: Promise<void> | undefined;
  return {
    tracer: createAgentTracer({ tracer: trace.getTracer('switchboard'), captureContent }),
    spanFile: filePath,
    traceUrl: (traceId) => (uiBase ? `${uiBase}/trace/${traceId}` : undefined),
    shutdown: () => {
      stopping ??= stopSdk().finally(() => {
        for (const instrumentation of instrumentations) instrumentation.disable();
        // Let a later startTelemetry in this process register its own SDK.
        if (ownsGlobals) {
          trace.disable();
          context.disable();
          propagation.disable();
        }
      });
      return stopping;
    },
  };
}

function toTracesUrl(endpoint: string): string {
  const base = checkUrl('otlpEndpoint', endpoint);
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

function checkUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new TelemetryError('INVALID_OPTIONS', {
      message: `${name} must be an http(s) base URL such as http://localhost:4318 (got "${value}").`,
    });
  }
  return value;
}

function tracerDelegate(): TracerProvider {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
}

/** `fetch` spans record the URL; secrets in it (query keys, user:password@) are redacted. */
function redactedUrl(request: { origin: string; path: string }): Record<string, string> {
  try {
    const url = new URL(request.path, request.origin);
    return { [COMMON.urlFull]: redactText(url.toString()), [COMMON.urlQuery]: redactText(url.search) };
  } catch {
    return {};
  }
}
