import type { Logger } from '@switchboard/agent';
import { DelegateError } from './errors.ts';

/** How many live replicas an agent has right now, e.g. its instances in the registry. */
export type LiveReplicas = (agent: string) => Promise<number>;

/** Options of {@link watchReplicas}. */
export interface WatchReplicasOptions {
  agent: string;
  liveReplicas: LiveReplicas;
  /** How long the agent may have no live replica before the watch gives up. */
  waitMs: number;
  /** When the call ends anyway (its hop timeout, epoch ms): the progress never promises more. */
  deadline: number;
  /** How often the replicas are counted (default 1 000 ms). */
  pollMs?: number;
  /** Tells the caller, e.g. "orders has no live replica; waiting up to 30 s". */
  report: (text: string) => void;
  logger: Logger;
}

/** A running watch over one call. */
export interface ReplicaWatch {
  /** Fires (with an `DelegateError` `NO_LIVE_REPLICA`) when the agent had no live replica for the whole wait. */
  readonly signal: AbortSignal;
  /** Ends the watch; call it when the call is over. */
  stop(): void;
}

const seconds = (ms: number) => `${Number((Math.max(0, ms) / 1000).toFixed(1))} s`;

/**
 * Watches the replicas of the agent a call waits on. A queued request waits for a worker that is
 * coming back, which is right, but not silently and not for the whole hop timeout: when the agent
 * has no live replica the caller hears so, and when none appears within `waitMs` the signal fires
 * so the call can give up. A replica that appears in time ends the wait; the call goes on (and
 * should the agent lose every replica again, a new wait begins).
 *
 * @example
 * const watch = watchReplicas({ agent: 'orders', liveReplicas, waitMs: 30_000, deadline, report, logger });
 * try { await call(AbortSignal.any([signal, watch.signal])); } finally { watch.stop(); }
 */
export function watchReplicas({
  agent,
  liveReplicas,
  waitMs,
  deadline,
  pollMs = 1_000,
  report,
  logger,
}: WatchReplicasOptions): ReplicaWatch {
  const gaveUp = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let missingSince: number | undefined;
  let unreadable = false;
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(() => void check(), Math.max(0, ms));
  };
  const check = async () => {
    let live: number;
    try {
      live = await liveReplicas(agent);
    } catch (error) {
      // Unknown is not "none": the call keeps waiting, bounded by its hop timeout.
      if (!unreadable) logger.warn({ err: error, agent }, 'could not count the live replicas of a peer');
      unreadable = true;
      return schedule(pollMs);
    }
    if (stopped) return;
    unreadable = false;
    const now = Date.now();
    if (live > 0) {
      // A replica is back: the call goes on, and the peer's own progress shows it working.
      missingSince = undefined;
      return schedule(pollMs);
    }
    if (missingSince === undefined) {
      missingSince = now;
      report(`${agent} has no live replica; waiting up to ${seconds(Math.min(waitMs, deadline - now))}`);
    } else if (now - missingSince >= waitMs) {
      gaveUp.abort(
        new DelegateError('NO_LIVE_REPLICA', {
          message: `The ${agent} agent had no live replica for ${seconds(now - missingSince)}; the request was given up.`,
        }),
      );
      return;
    }
    schedule(Math.min(pollMs, missingSince + waitMs - now));
  };
  void check();
  return {
    signal: gaveUp.signal,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
