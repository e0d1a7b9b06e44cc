/** Options of {@link stopWhenTold}. */
export interface StopWhenToldOptions {
  /** Drains and closes the service; the process exits 0 once it resolves. */
  stop: () => Promise<void>;
  /** Longest `stop` may take before the process exits anyway, with code 1. */
  deadlineMs: number;
}

/**
 * Stops a test service on SIGTERM, or when the test that started it goes away: the test starts it
 * with an IPC channel, which closes when the test's process ends, even by SIGKILL, so no service
 * outlives its test. The channel never keeps the service alive by itself. The same contract as
 * `exitWithParent` of `@switchboard/service`, which these test services do not depend on.
 */
export function stopWhenTold({ stop, deadlineMs }: StopWhenToldOptions): void {
  process.channel?.unref();
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), deadlineMs).unref();
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('disconnect', shutdown);
}
