/** The parent went away and the drain did not end in time: the process exits 1 without waiting more. */
export class DrainTimeoutError extends Error {
  readonly code = 'DRAIN_TIMEOUT';

  readonly deadlineMs: number;

  constructor(deadlineMs: number) {
    super(`The parent process went away and the drain did not end within ${deadlineMs} ms.`);
    this.name = new.target.name;
    this.deadlineMs = deadlineMs;
  }
}

const ignoreBrokenPipe = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
};

/** Options of {@link exitWithParent}. */
export interface ExitWithParentOptions {
  /** Drains and stops the process's work, as on SIGTERM; the process exits 0 once it resolves. */
  close: () => Promise<void>;
  /** Longest `close` may take before the process exits anyway, with code 1 (default 30 000 ms). */
  deadlineMs?: number;
  /** Told why the process exits 1: `close` failed, or ran past the deadline ({@link DrainTimeoutError}). */
  onError?: (error: unknown) => void;
}

/**
 * Makes a child process end with the process that started it. A parent that spawns its Node children
 * with an IPC channel (`'ipc'` in `stdio`) needs nothing else: when the parent dies, even by SIGKILL,
 * the operating system closes the channel, and the child drains (`close`) and exits, within
 * `deadlineMs`, the same way it does on SIGTERM. The channel is unreferenced, so it never keeps the
 * child alive by itself. A process started without a channel (from a shell, by an orchestrator) is left
 * alone.
 *
 * Call it once, where the process installs its SIGTERM handler; `close` should be idempotent, since
 * a SIGTERM may arrive too.
 *
 * @returns whether the process has a parent to follow (it was started with an IPC channel)
 * @example
 * process.once('SIGTERM', () => void stop());
 * exitWithParent({ close: drain, deadlineMs: config.drainMs + 10_000 });
 */
export function exitWithParent({ close, deadlineMs = 30_000, onError }: ExitWithParentOptions): boolean {
  if (!(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
    throw new RangeError(`exitWithParent: deadlineMs must be a positive number of ms, got ${deadlineMs}`);
  }
  const channel = process.channel;
  if (!channel) return false;
  // Explicitly unreferenced, it stays so even when 'message' or 'disconnect' listeners are added.
  channel.unref();
  process.once('disconnect', () => {
    // The parent most likely read this process's output too: from now on what is written goes nowhere,
    // and a write must not crash the drain.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreBrokenPipe);
    setTimeout(() => {
      onError?.(new DrainTimeoutError(deadlineMs));
      process.exit(1);
    }, deadlineMs).unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        onError?.(error);
        process.exit(1);
      },
    );
  });
  return true;
}
