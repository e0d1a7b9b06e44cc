/**
 * The messages between the soak bench and its model server process (`soak-model-server.ts`), over the
 * Node IPC channel. Each side validates what it receives.
 */
import { z } from 'zod';

/** Bench → model server: how many model calls have you answered? */
export const CallsQuery = z.object({ type: z.literal('calls') });
export type CallsQuery = z.infer<typeof CallsQuery>;

/** Model server → bench: model calls answered since it started. */
export const CallsReport = z.object({ type: z.literal('calls'), calls: z.number() });
export type CallsReport = z.infer<typeof CallsReport>;
