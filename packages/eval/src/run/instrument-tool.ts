import type { AnyTool, ToolContext } from '@switchboard/agent';
import type { Fault } from '../case/eval-case.ts';
import type { CaseRecorder, HandlerRun } from './case-recorder.ts';

/** What a `malformed` fault returns instead of the tool's data. */
export const MALFORMED_RESULT = Object.freeze({ unexpected: true });

/** Options of {@link instrumentTool}. */
export interface InstrumentToolOptions {
  agent: string;
  tool: AnyTool;
  recorder: CaseRecorder;
  /** The case's faults; those for this agent and tool apply. */
  faults?: readonly Fault[];
  /**
   * The tool timeout while a `timeout` fault is armed on it, so the runtime's timeout fires soon
   * instead of after the tool's own (often 10 s) timeout (default 1 000 ms; 0 keeps the tool's).
   */
  faultTimeoutMs?: number;
}

/** Waits until the attempt is abandoned: a handler that never answers, as a hung dependency would. */
function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener('abort', () => reject(new Error('eval fault: abandoned after timeout')), {
      once: true,
    });
  });
}

/**
 * Wraps a worker tool for a case: every handler invocation is recorded with its validated input
 * (the trajectory with real arguments) and what it returned, and the case's faults for this tool answer instead of the
 * handler (`timeout`: never resolves; `error`: throws; `malformed`: returns `{ unexpected: true }`),
 * on every call or on the first `times` calls. Name, schema, risk and description stay the same.
 */
export function instrumentTool({
  agent,
  tool,
  recorder,
  faults = [],
  faultTimeoutMs = 1_000,
}: InstrumentToolOptions): AnyTool {
  recorder.workerTools.set(tool.name, { agent, risk: tool.risk });
  const mine = faults.filter((fault) => fault.agent === agent && fault.tool === tool.name);
  let calls = 0;
  const handler = async (input: unknown, context: ToolContext): Promise<unknown> => {
    calls += 1;
    const fault = mine.find((candidate) => candidate.times === undefined || calls <= candidate.times);
    const run: HandlerRun = {
      agent,
      tool: tool.name,
      risk: tool.risk,
      conversationId: context.conversationId,
      callId: context.callId,
      input,
      faulted: fault !== undefined,
    };
    recorder.runs.push(run);
    if (!fault) {
      try {
        run.output = await tool.handler(input, context);
        return run.output;
      } catch (error) {
        run.threw = true;
        throw error;
      }
    }
    switch (fault.kind) {
      case 'timeout':
        return hang(context.signal);
      case 'error':
        throw new Error(`eval fault: ${agent}.${tool.name} failed on purpose`);
      case 'malformed':
        return { ...MALFORMED_RESULT };
      default: {
        const never: never = fault.kind;
        throw new Error(`unknown fault kind ${String(never)}`);
      }
    }
  };
  const timed = mine.some((fault) => fault.kind === 'timeout') && faultTimeoutMs > 0;
  return Object.freeze({
    ...tool,
    ...(timed ? { timeoutMs: Math.min(tool.timeoutMs, faultTimeoutMs) } : {}),
    handler,
  }) as AnyTool;
}
