/**
 * The messages between the a2a-hop bench and its child processes (`hop-client.ts`, `otlp-sink.ts`),
 * over the Node IPC channel. Each side validates what it receives.
 */
import { z } from 'zod';

/** Bench → hop-client: run one phase of `calls` calls, `inFlight` at once. */
export const ClientCommand = z.object({
  type: z.literal('measure'),
  id: z.number(),
  calls: z.number(),
  inFlight: z.number(),
});
export type ClientCommand = z.infer<typeof ClientCommand>;

/** hop-client → bench: one phase measured (see `Measured`). */
export const ClientMeasured = z.object({
  type: z.literal('measured'),
  id: z.number(),
  latencies: z.array(z.number()),
  errors: z.number(),
  wallMs: z.number(),
  cpuMs: z.number(),
  firstError: z.string().optional(),
});
export type ClientMeasured = z.infer<typeof ClientMeasured>;

/** Bench → otlp-sink: report what was received so far. */
export const SinkCommand = z.object({ type: z.literal('count') });
export type SinkCommand = z.infer<typeof SinkCommand>;

/**
 * otlp-sink → bench: spans received, root spans among them, spans by `<service.name> <kind> <span
 * name>`, and the CPU time the sink had used when asked (before it parsed the bodies it kept).
 */
export const SinkCount = z.object({
  type: z.literal('count'),
  requests: z.number(),
  rejected: z.number(),
  bytes: z.number(),
  spans: z.number(),
  roots: z.number(),
  byName: z.record(z.string(), z.number()),
  cpuMs: z.number(),
});
export type SinkCount = z.infer<typeof SinkCount>;

/** Bench → hop-server: report the CPU time this process has used so far. */
export const CpuQuery = z.object({ type: z.literal('cpu') });
export type CpuQuery = z.infer<typeof CpuQuery>;

/** hop-server → bench: CPU time (user + system) used so far, in ms. */
export const CpuReport = z.object({ type: z.literal('cpu'), cpuMs: z.number() });
export type CpuReport = z.infer<typeof CpuReport>;
