/**
 * The measuring loop of the a2a-hop bench, shared by the bench process (`a2a-hop.ts`) and the client
 * processes it starts (`hop-client.ts`), so every binding is timed by the same code.
 */
import { randomUUID } from 'node:crypto';
import { Role, type SendMessageRequest, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { textPart } from '@switchboard/protocol';

/** Each measured phase stops issuing calls after this long, whatever its count. */
export const PHASE_BUDGET_MS = 20_000;
export const CALL_TIMEOUT_MS = 10_000;

export type Call = () => Promise<void>;

/** One phase: the latency of every call that succeeded, failures, wall time and the CPU it took. */
export interface Measured {
  latencies: number[];
  errors: number;
  wallMs: number;
  /** CPU time (user + system) of the process that made the calls, during the phase. */
  cpuMs: number;
  firstError?: string;
}

/** Runs `calls` calls with `inFlight` at once; each round trip timed with performance.now(). */
export async function measure(call: Call, calls: number, inFlight: number): Promise<Measured> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  let firstError: string | undefined;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + PHASE_BUDGET_MS;
  const lane = async () => {
    while (issued < calls && performance.now() < deadline) {
      issued++;
      const began = performance.now();
      try {
        await call();
        latencies.push(performance.now() - began);
      } catch (error) {
        errors++;
        firstError ??= String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    latencies,
    errors,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...(firstError ? { firstError } : {}),
  };
}

/** A blocking SendMessage that starts a new task; the reply must be the completed task. */
export function sendOnce(client: Client): Call {
  return async () => {
    const request: SendMessageRequest = {
      tenant: '',
      message: {
        messageId: randomUUID(),
        role: Role.ROLE_USER,
        parts: [textPart('ping')],
        contextId: '',
        taskId: '',
        metadata: {},
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: {},
    };
    const result = await client.sendMessage(request, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    if (!('status' in result) || result.status?.state !== TaskState.TASK_STATE_COMPLETED) {
      throw new Error('the reply is not a completed task');
    }
  };
}
