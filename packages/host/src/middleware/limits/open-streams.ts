import type { Logger } from '@switchboard/agent';
import { type Slot, takeLeasedSlot } from './leased-slot.ts';
import type { LimitCounters } from './limit-counters.ts';
import { inSeconds, TooManyRequestsError } from './limit-errors.ts';
import type { LimitedCaller } from './request-limits.ts';

/** When a caller refused for holding too many streams is told to look again. */
const STREAMS_RETRY_MS = 5_000;

/** Options of {@link openStreamSlot}. */
export interface OpenStreamSlotOptions {
  caller: LimitedCaller;
  counters: LimitCounters;
  leaseMs: number;
  logger: Pick<Logger, 'warn'>;
}

/**
 * Takes one of the caller's open-stream slots (`maxOpenStreams`, counted across replicas as tasks in
 * flight are: leases renewed while the stream is open), or refuses with a `TooManyRequestsError`
 * that says how many are open and the limit. `undefined` for a caller without a limit.
 */
export async function openStreamSlot({
  caller,
  counters,
  leaseMs,
  logger,
}: OpenStreamSlotOptions): Promise<Slot | undefined> {
  const max = caller.limits.maxOpenStreams;
  if (caller.key === undefined || max === Number.POSITIVE_INFINITY) return undefined;
  const key = `streams:${caller.key}`;
  const slot = await takeLeasedSlot({ counters, key, max, leaseMs, logger, what: 'stream' });
  if (slot) return slot;
  const open = await counters.slotsHeld?.(key).catch(() => undefined);
  throw new TooManyRequestsError({
    message: `Too many streams open: ${open ?? max} streams open for this caller, the limit is ${max} at once; close one (or let one end) and retry in ${inSeconds(STREAMS_RETRY_MS)}.`,
    limit: 'maxOpenStreams',
    retryAfterMs: STREAMS_RETRY_MS,
  });
}
