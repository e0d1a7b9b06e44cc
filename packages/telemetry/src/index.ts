export type { AgentTracerOptions } from './agent-tracer.ts';
export { createAgentTracer } from './agent-tracer.ts';
export type { RouteConsoleOptions } from './console-route.ts';
export { routeConsole } from './console-route.ts';
export { DEFAULT_MAX_CONTENT_LENGTH } from './content-attribute.ts';
export type { TelemetryErrorCode, TelemetryErrorParty } from './errors.ts';
export { isTelemetryError, TELEMETRY_ERRORS, TelemetryError } from './errors.ts';
export type { FetchJaegerTraceOptions } from './jaeger.ts';
export { fetchJaegerTrace } from './jaeger.ts';
export { JaegerTraceResponse, jaegerToSpanRecords } from './jaeger-json.ts';
export type { SearchJaegerSpansOptions } from './jaeger-search.ts';
export { searchJaegerSpans } from './jaeger-search.ts';
export type { CreateLoggerOptions } from './logger.ts';
export { createLogger } from './logger.ts';
export { OtlpTraceData, otlpToSpanRecords } from './otlp-json.ts';
export type { SkippedSpanLine, SpanFileExporterOptions, SpanFileScan } from './span-file.ts';
export { DEFAULT_SPAN_FILE, readSpanFile, SpanFileExporter, scanSpanFile } from './span-file.ts';
export {
  SpanKindName,
  SpanRecord,
  SpanRecordAttributeValue,
  SpanStatusName,
  toSpanRecord,
} from './span-record.ts';
export type { StartTelemetryOptions, Telemetry } from './start-telemetry.ts';
export { DEFAULT_MAX_ATTRIBUTE_LENGTH, startTelemetry } from './start-telemetry.ts';
export type {
  ReadTraceOptions,
  TraceIdsOfTaskOptions,
  TraceRead,
  TraceSource,
} from './trace-reader.ts';
export { jaegerTraceUrl, readTrace, readTracesOfTask, traceIdsOfTask } from './trace-reader.ts';
export type { RenderTraceTreeOptions, TraceNode, TraceTree } from './trace-tree.ts';
export { buildTraceTree, lastTraceId, renderTraceTree, TRACE_TREE_ATTRIBUTES } from './trace-tree.ts';
