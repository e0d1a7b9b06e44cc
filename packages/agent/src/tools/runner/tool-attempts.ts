import type { Logger } from '../../observe/logger.ts';
import type { AnyTool, ToolContext } from '../define-tool.ts';
import { type AttemptResult, invokeHandler, sleep } from './invoke-handler.ts';

/** The last attempt's result, and how many attempts were made. */
export interface AttemptsResult {
  result: AttemptResult;
  attempts: number;
}

/**
 * Runs a handler until it answers, retrying failures and timeouts of idempotent tools up to
 * `tool.retries` times. The delay doubles per retry, capped at 2 s; a canceled run is not retried.
 * Each failed attempt is logged with its raw error; none of it reaches the model.
 */
export async function runAttempts({
  tool,
  input,
  context,
  signal,
  firstDelayMs,
  logger,
  logFields,
}: {
  tool: AnyTool;
  input: unknown;
  context: Omit<ToolContext, 'signal' | 'attempt'>;
  signal: AbortSignal;
  firstDelayMs: number;
  logger: Logger;
  /** Who made the call, for the log lines of failed attempts. */
  logFields: { agent: string; conversationId: string; tool: string; callId: string };
}): Promise<AttemptsResult> {
  const maxAttempts = 1 + (tool.idempotent ? tool.retries : 0);
  let delay = firstDelayMs;
  for (let attempt = 1; ; attempt++) {
    const result = await invokeHandler({ tool, input, context: { ...context, attempt }, signal });
    if (result.kind === 'ok' || result.kind === 'canceled') return { result, attempts: attempt };
    if (result.kind === 'error') {
      logger.error({ err: result.error, ...logFields, attempt }, 'tool handler failed');
    } else {
      logger.warn({ ...logFields, attempt }, 'tool timed out');
    }
    if (attempt < maxAttempts && !signal.aborted) {
      await sleep(delay, signal);
      delay = Math.min(delay * 2, 2_000);
      continue;
    }
    return { result, attempts: attempt };
  }
}
