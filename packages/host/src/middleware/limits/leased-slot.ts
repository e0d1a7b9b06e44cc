import { randomUUID } from 'node:crypto';
import type { Logger } from '@switchboard/agent';
import type { LimitCounters } from './limit-counters.ts';

/** A held slot; `release` is idempotent and never rejects (a failure is logged). */
export interface Slot {
  release(): Promise<void>;
}

/** Options of {@link takeLeasedSlot}. */
export interface TakeLeasedSlotOptions {
  counters: LimitCounters;
  /** The counted set, e.g. `tasks:user:u-1024`. */
  key: string;
  /** At most this many slots held at once under `key`. */
  max: number;
  /** How long a slot lasts unrenewed; it is renewed every third of that while held. */
  leaseMs: number;
  /** Where slots that could not be renewed or given back are reported, as `<what> slot not …`. */
  logger: Pick<Logger, 'warn'>;
  what: string;
}

/**
 * Takes one of `max` slots under `key`, or `undefined` when they are all held: a lease, renewed while
 * held, so the slots of a replica that crashed are free again after `leaseMs`.
 */
export async function takeLeasedSlot({
  counters,
  key,
  max,
  leaseMs,
  logger,
  what,
}: TakeLeasedSlotOptions): Promise<Slot | undefined> {
  const id = randomUUID();
  if (!(await counters.acquireSlot(key, id, max, leaseMs))) return undefined;
  const renew = setInterval(() => {
    counters
      .renewSlot(key, id, leaseMs)
      .catch((err: unknown) => logger.warn({ err, key }, `${what} slot not renewed`));
  }, leaseMs / 3);
  renew.unref();
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(renew);
      await counters
        .releaseSlot(key, id)
        .catch((err: unknown) => logger.warn({ err, key }, `${what} slot not given back`));
    },
  };
}
