// Reading traces back (the dev span file, Jaeger's query API) without the OpenTelemetry SDK: what a
// reader of traces (the CLI, the console) imports.
export type { TelemetryErrorCode, TelemetryErrorParty } from './errors.ts';
export { isTelemetryError, TelemetryError } from './errors.ts';
export type { SkippedSpanLine } from './span-file.ts';
export { SpanKindName, SpanRecord, SpanRecordAttributeValue, SpanStatusName } from './span-record.ts';
export type {
  ReadTraceOptions,
  TraceIdsOfTaskOptions,
  TraceRead,
  TraceSource,
} from './trace-reader.ts';
export { jaegerTraceUrl, readTrace, readTracesOfTask, traceIdsOfTask } from './trace-reader.ts';
export type { TraceNode, TraceTree } from './trace-tree.ts';
export { buildTraceTree, TRACE_TREE_ATTRIBUTES } from './trace-tree.ts';
