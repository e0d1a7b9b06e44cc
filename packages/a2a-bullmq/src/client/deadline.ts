/** How {@link beforeDeadline} ended: the work's value, or why it stopped waiting for it. */
export type DeadlineOutcome<T> = { done: true; value: T } | { done: false; reason: 'timeout' | 'aborted' };

/**
 * Waits for `work` at most `ms` (and no longer than `signal`): its value, or that the wait ended
 * first. The work goes on either way; a rejection of it is passed on. For what may wait on Redis
 * without bound, e.g. a command queued while the connection is down.
 */
export function beforeDeadline<T>(
  work: Promise<T>,
  { ms, signal }: { ms: number; signal?: AbortSignal | undefined },
): Promise<DeadlineOutcome<T>> {
  if (signal?.aborted) return Promise.resolve({ done: false, reason: 'aborted' });
  return new Promise((resolve, reject) => {
    const finish = (outcome: DeadlineOutcome<T>) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => finish({ done: false, reason: 'aborted' });
    const timer = setTimeout(() => finish({ done: false, reason: 'timeout' }), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => finish({ done: true, value }),
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
