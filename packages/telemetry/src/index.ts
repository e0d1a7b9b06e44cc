export type { AgentTracerOptions } from './agent-tracer.js';
export { createAgentTracer } from './agent-tracer.js';
export { DEFAULT_MAX_CONTENT_LENGTH } from './content-attribute.js';
export type { TelemetryErrorCode, TelemetryErrorParty } from './errors.js';
export { isTelemetryError, TELEMETRY_ERRORS, TelemetryError } from './errors.js';
export type { FetchJaegerTraceOptions } from './jaeger.js';
export { fetchJaegerTrace } from './jaeger.js';
export { JaegerTraceResponse, jaegerToSpanRecords } from './jaeger-json.js';
export type { CreateLoggerOptions } from './logger.js';
export { createLogger } from './logger.js';
export { OtlpTraceData, otlpToSpanRecords } from './otlp-json.js';
export type { MessagingOperation } from './semconv.js';
export {
  A2A,
  a2aSpanName,
  COMMON,
  MESSAGING,
  MESSAGING_OPERATION,
  MESSAGING_SYSTEM,
  messagingSpanName,
  RESOURCE,
} from './semconv.js';
export type { SpanFileExporterOptions } from './span-file.js';
export { DEFAULT_SPAN_FILE, readSpanFile, SpanFileExporter } from './span-file.js';
export {
  SpanKindName,
  SpanRecord,
  SpanRecordAttributeValue,
  SpanStatusName,
  toSpanRecord,
} from './span-record.js';
export type { StartTelemetryOptions, Telemetry } from './start-telemetry.js';
export { startTelemetry } from './start-telemetry.js';
export type { RenderTraceTreeOptions, TraceNode, TraceTree } from './trace-tree.js';
export { buildTraceTree, lastTraceId, renderTraceTree, TRACE_TREE_ATTRIBUTES } from './trace-tree.js';
