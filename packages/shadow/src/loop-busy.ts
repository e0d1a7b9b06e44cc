import { type EventLoopUtilization, performance } from 'node:perf_hooks';

/** How often the event loop's busy share is sampled. */
const SAMPLE_MS = 250;

/** A running {@link watchEventLoop}. */
export interface EventLoopWatch {
  /** The share of the last sampled quarter second (0 to 1) that this process's event loop was busy. */
  busy(): number;
  stop(): void;
}

/**
 * Samples how busy this process's event loop is (its event loop utilization, every 250 ms), so work
 * that must never slow live requests can wait while they keep the loop busy. The timer does not keep
 * the process alive.
 */
export function watchEventLoop(): EventLoopWatch {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let busy = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
  }, SAMPLE_MS);
  timer.unref();
  return { busy: () => busy, stop: () => clearInterval(timer) };
}
