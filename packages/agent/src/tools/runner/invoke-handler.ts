import type { AnyTool, ToolContext } from '../define-tool.ts';

/** How one attempt of a handler ended. */
export type AttemptResult =
  | { kind: 'ok'; data: unknown }
  | { kind: 'timeout' }
  | { kind: 'canceled' }
  | { kind: 'error'; error: unknown };

/**
 * Runs a handler once with its timeout. The handler gets a signal that fires on timeout or on
 * cancellation; a handler that ignores its signal is abandoned all the same when the time is up.
 */
export async function invokeHandler({
  tool,
  input,
  context,
  signal,
}: {
  tool: AnyTool;
  input: unknown;
  context: Omit<ToolContext, 'signal'>;
  signal: AbortSignal;
}): Promise<AttemptResult> {
  if (signal.aborted) return { kind: 'canceled' };
  const timeout = new AbortController();
  const attemptSignal = AbortSignal.any([signal, timeout.signal]);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<AttemptResult>((resolve) => {
    timer = setTimeout(() => {
      timeout.abort();
      resolve({ kind: 'timeout' });
    }, tool.timeoutMs);
    onAbort = () => resolve({ kind: 'canceled' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const run = (async (): Promise<AttemptResult> => {
    try {
      return { kind: 'ok', data: await tool.handler(input, { ...context, signal: attemptSignal }) };
    } catch (error) {
      if (signal.aborted) return { kind: 'canceled' };
      if (timeout.signal.aborted) return { kind: 'timeout' };
      return { kind: 'error', error };
    }
  })();
  try {
    return await Promise.race([run, stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/** Waits `ms`, or less when `signal` fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
