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

/** What {@link watchParent} returns: the parent is followed, and this says what to do when it goes. */
export interface ParentWatch {
  /**
   * From now on, when the parent goes away, drain with `close` and exit (0, or 1 past `deadlineMs` or
   * when `close` fails). If it already went away, that starts at once.
   */
  drainWith(options: ExitWithParentOptions): void;
}

/**
 * Starts following the process that started this one, if it did so with an IPC channel (`'ipc'` in
 * `stdio`); returns `undefined` for a process started without one (from a shell, by an orchestrator),
 * which is left alone. Call it first thing, before the process starts anything: a parent that dies
 * while this process is still starting ends it at once (exit 1; there is nothing to drain yet), and
 * {@link ParentWatch.drainWith} turns that into a drain once there is something to drain. The channel
 * is unreferenced, so it never keeps the process alive by itself.
 */
export function watchParent(): ParentWatch | undefined {
  const channel = process.channel;
  if (!channel) return undefined;
  // Explicitly unreferenced, it stays so even when 'message' or 'disconnect' listeners are added.
  channel.unref();
  let gone = false;
  let onGone: () => void = () => {
    process.stderr.write('The process that started this one went away while it was starting; exiting.\n');
    process.exit(1);
  };
  process.once('disconnect', () => {
    gone = true;
    // The parent most likely read this process's output too: from now on what is written goes nowhere,
    // and a write must not crash the drain.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', ignoreBrokenPipe);
    onGone();
  });
  return {
    drainWith: ({ close, deadlineMs = 30_000, onError }) => {
      if (!(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
        throw new RangeError(`exitWithParent: deadlineMs must be a positive number of ms, got ${deadlineMs}`);
      }
      onGone = () => {
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
      };
      if (gone) onGone();
    },
  };
}

/**
 * Makes a child process end with the process that started it. A parent that spawns its Node children
 * with an IPC channel (`'ipc'` in `stdio`) needs nothing else: when the parent dies, even by SIGKILL,
 * the operating system closes the channel, and the child drains (`close`) and exits, within
 * `deadlineMs`, the same way it does on SIGTERM. The channel is unreferenced, so it never keeps the
 * child alive by itself. A process started without a channel (from a shell, by an orchestrator) is left
 * alone. A process that takes a while to start calls {@link watchParent} first instead, so that a
 * parent gone during the start is not missed.
 *
 * Call it once, where the process installs its SIGTERM handler; `close` should be idempotent, since
 * a SIGTERM may arrive too.
 *
 * @returns whether the process has a parent to follow (it was started with an IPC channel)
 * @example
 * process.once('SIGTERM', () => void stop());
 * exitWithParent({ close: drain, deadlineMs: config.drainMs + 10_000 });
 */
export function exitWithParent(options: ExitWithParentOptions): boolean {
  const watch = watchParent();
  watch?.drainWith(options);
  return watch !== undefined;
}
