import type { Message, SendMessageRequest, Task } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import type { Logger } from '@switchboard/agent';
import { principalOf } from '@switchboard/identity';
import { stillRunning, untilTaskStops } from '../../tasks/detached-task.ts';
import { decorateHandler } from '../decorate-handler.ts';
import { type Slot, takeLeasedSlot } from './leased-slot.ts';
import { legacyLimitCodes } from './limit-codes.ts';
import type { LimitCounters } from './limit-counters.ts';
import { inKilobytes, inSeconds, messageTooLarge, TooManyRequestsError } from './limit-errors.ts';
import { messageContentBytes } from './message-size.ts';
import { openStreamSlot } from './open-streams.ts';
import { type HostLimits, type LimitedCaller, limitedCaller, resolveLimits } from './request-limits.ts';

/** Options of {@link limitRequests}. */
export interface LimitRequestsOptions {
  /** The request handler to protect, e.g. `createAgentHandler(...).requestHandler`. */
  handler: A2ARequestHandler;
  /** The limits by kind of caller (see {@link HostLimits} for the defaults). */
  limits?: Omit<HostLimits, 'counters'>;
  /** Where counts are kept: `RedisLimitCounters` for several replicas, `MemoryLimitCounters` for one. */
  counters: LimitCounters;
  /** Where slots that could not be renewed or given back are reported. */
  logger: Pick<Logger, 'warn'>;
}

const MINUTE_MS = 60_000;
/** States in which a task waits for its caller instead of running. */
/** When a caller refused for running too many tasks is told to look again. */
const TASKS_RETRY_MS = 5_000;

/**
 * Wraps a request handler with per-caller limits, checked before the call runs:
 * - every call counts against the caller's requests per minute;
 * - a message (`SendMessage`, `SendStreamingMessage`) must fit the size and parts limits, and takes
 *   one of the caller's task slots for as long as its task runs (until the call answers; a
 *   `returnImmediately` task until it ends), across replicas when the counters are on Redis;
 * - a stream (`SendStreamingMessage`, `SubscribeToTask`, v0.3 `tasks/resubscribe`) takes one of the
 *   caller's stream slots while it is open (see `openStreamSlot`).
 *
 * A refusal is an A2A error that names the limit and when to retry: "Too many requests: 60 per
 * minute per caller; retry in 23 s." (`TooManyRequestsError`), or "Message too large: ..."
 * (InvalidParams). `hostAgent` applies it to HTTP and the queue alike.
 *
 * @example
 * const requestHandler = limitRequests({ handler: hosted.requestHandler, counters: new MemoryLimitCounters(), logger });
 */
export function limitRequests({
  handler,
  limits = {},
  counters,
  logger,
}: LimitRequestsOptions): A2ARequestHandler {
  const resolved = resolveLimits(limits);
  const leaseMs = limits.slotLeaseMs ?? 60_000;

  const checkRate = async (caller: LimitedCaller): Promise<void> => {
    const max = caller.limits.requestsPerMinute;
    if (caller.key === undefined || max === Number.POSITIVE_INFINITY) return;
    const { count, resetInMs } = await counters.countRequest(`rate:${caller.key}`, MINUTE_MS);
    if (count <= max) return;
    throw new TooManyRequestsError({
      message: `Too many requests: ${max} per minute per caller; retry in ${inSeconds(resetInMs)}.`,
      limit: 'requestsPerMinute',
      retryAfterMs: resetInMs,
    });
  };

  const takeSlot = async (caller: LimitedCaller): Promise<Slot | undefined> => {
    const max = caller.limits.maxTasksInFlight;
    if (caller.key === undefined || max === Number.POSITIVE_INFINITY) return undefined;
    const key = `tasks:${caller.key}`;
    const slot = await takeLeasedSlot({ counters, key, max, leaseMs, logger, what: 'task' });
    if (!slot) {
      throw new TooManyRequestsError({
        message: `Too many tasks running: ${max} at once per caller; retry in ${inSeconds(TASKS_RETRY_MS)}, or once one of them has finished.`,
        limit: 'maxTasksInFlight',
        retryAfterMs: TASKS_RETRY_MS,
      });
    }
    return slot;
  };

  const takeStreamSlot = (caller: LimitedCaller) => openStreamSlot({ caller, counters, leaseMs, logger });

  /** Holds the slot of a task answered before it ended (`returnImmediately`) until it does end. */
  const holdUntilDone = async (
    slot: Slot,
    result: Message | Task,
    params: SendMessageRequest,
    call: ServerCallContext,
  ): Promise<void> => {
    const running = stillRunning(result);
    // Given back before the answer leaves, so the caller's next message finds it free.
    if (!running) {
      await slot.release();
      return;
    }
    void untilTaskStops({ handler, task: running, call, tenant: params.tenant ?? '' }).finally(() =>
      slot.release(),
    );
  };

  const admitMessage = async (
    params: SendMessageRequest,
    call: ServerCallContext,
  ): Promise<Slot | undefined> => {
    const caller = limitedCaller(principalOf(call.user), resolved);
    await checkRate(caller);
    checkMessage(params, caller);
    return takeSlot(caller);
  };

  // v0.3 callers get the refusals' v1.0 code too.
  return legacyLimitCodes(
    decorateHandler(handler, {
      unary: async (method, params, call, run) => {
        if (method !== 'sendMessage') {
          await checkRate(limitedCaller(principalOf(call.user), resolved));
          return run();
        }
        const request = params as SendMessageRequest;
        const slot = await admitMessage(request, call);
        if (!slot) return run();
        let result: Awaited<ReturnType<typeof run>>;
        try {
          result = await run();
        } catch (error) {
          await slot.release();
          throw error;
        }
        await holdUntilDone(slot, result as Message | Task, request, call);
        return result;
      },
      stream: async function* (method, params, call, open) {
        const caller = limitedCaller(principalOf(call.user), resolved);
        if (method !== 'sendMessageStream') {
          await checkRate(caller);
          const stream = await takeStreamSlot(caller);
          try {
            yield* open();
          } finally {
            await stream?.release();
          }
          return;
        }
        const slot = await admitMessage(params as SendMessageRequest, call);
        try {
          const stream = await takeStreamSlot(caller);
          try {
            yield* open();
          } finally {
            await stream?.release();
          }
        } finally {
          await slot?.release();
        }
      },
    }),
  );
}

/** Refuses a message over the caller's size or parts limit. */
function checkMessage(params: SendMessageRequest, { limits }: LimitedCaller): void {
  const message = params.message;
  if (!message) return;
  const parts = message.parts?.length ?? 0;
  if (parts > limits.maxMessageParts) {
    throw messageTooLarge({
      limit: 'maxMessageParts',
      max: limits.maxMessageParts,
      actual: parts,
      message: `Too many parts: ${parts} in one message, the limit is ${limits.maxMessageParts}; put the content in fewer parts.`,
    });
  }
  const bytes = messageContentBytes(message);
  if (bytes > limits.maxMessageBytes) {
    throw messageTooLarge({
      limit: 'maxMessageBytes',
      max: limits.maxMessageBytes,
      actual: bytes,
      message: `Message too large: ${inKilobytes(bytes)} of content, the limit is ${inKilobytes(limits.maxMessageBytes)} per message; send less, or split it over several messages.`,
    });
  }
}
