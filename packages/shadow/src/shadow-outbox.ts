import type { Logger } from '@switchboard/agent';

/**
 * Work the live path hands off and never waits for: at most `capacity` jobs wait (default 5,000),
 * `concurrency` run at once (default 64: each is a Redis round trip or two, and a busy event loop
 * stretches every one of them), started in the order given; a job offered while it is full is dropped and counted, a job
 * that fails is logged and counted. So a slow or unreachable Redis costs the live request nothing
 * but a push.
 */
export class ShadowOutbox {
  readonly #capacity: number;
  readonly #concurrency: number;
  readonly #logger: Logger;
  readonly #jobs: { run: () => Promise<unknown>; done: () => void }[] = [];
  #running = 0;
  #idle: (() => void)[] = [];
  #dropped = 0;
  #failed = 0;
  #lastWarning = 0;

  constructor({
    capacity = 5_000,
    concurrency = 64,
    logger,
  }: { capacity?: number; concurrency?: number; logger: Logger }) {
    this.#capacity = capacity;
    this.#concurrency = concurrency;
    this.#logger = logger;
  }

  /** Jobs dropped because the outbox was full, jobs that failed, and jobs waiting. */
  get counts(): { dropped: number; failed: number; waiting: number } {
    return { dropped: this.#dropped, failed: this.#failed, waiting: this.#jobs.length };
  }

  /**
   * Queues a job. Resolves once it has run (or failed), or at once when it was dropped; never
   * rejects: a later job that needs it done first may wait for it.
   */
  offer(run: () => Promise<unknown>): Promise<void> {
    if (this.#jobs.length >= this.#capacity) {
      this.#dropped += 1;
      this.#warn('shadow outbox full: a shadow copy or record was dropped');
      return Promise.resolve();
    }
    return new Promise<void>((done) => {
      this.#jobs.push({ run, done });
      // Off the caller's turn: the live request goes on before any of this runs.
      queueMicrotask(() => this.#pump());
    });
  }

  /** Resolves when every job queued so far has run. */
  flush(): Promise<void> {
    if (this.#running === 0 && this.#jobs.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  #pump(): void {
    while (this.#running < this.#concurrency) {
      const job = this.#jobs.shift();
      if (!job) break;
      this.#running += 1;
      job
        .run()
        .catch((error: unknown) => {
          this.#failed += 1;
          this.#warn('a shadow copy or record could not be written', error);
        })
        .finally(() => {
          this.#running -= 1;
          job.done();
          this.#pump();
          if (this.#running === 0 && this.#jobs.length === 0)
            for (const resolve of this.#idle.splice(0)) resolve();
        });
    }
  }

  /** At most one warning a minute: a Redis outage must not flood the logs of the live service. */
  #warn(message: string, error?: unknown): void {
    if (Date.now() - this.#lastWarning < 60_000) return;
    this.#lastWarning = Date.now();
    this.#logger.warn({ err: error, dropped: this.#dropped, failed: this.#failed }, message);
  }
}
