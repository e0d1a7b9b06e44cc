import type { Logger } from '@switchboard/agent';

/**
 * Work the live path hands off and never waits for: at most `capacity` jobs wait, run one at a time
 * in the order given; a job offered while it is full is dropped and counted, a job that fails is
 * logged and counted. So a slow or unreachable Redis costs the live request nothing but a push.
 */
export class ShadowOutbox {
  readonly #capacity: number;
  readonly #logger: Logger;
  readonly #jobs: (() => Promise<unknown>)[] = [];
  #running: Promise<void> | undefined;
  #dropped = 0;
  #failed = 0;
  #lastWarning = 0;

  constructor({ capacity = 1_000, logger }: { capacity?: number; logger: Logger }) {
    this.#capacity = capacity;
    this.#logger = logger;
  }

  /** Jobs dropped because the outbox was full, and jobs that failed. */
  get counts(): { dropped: number; failed: number; waiting: number } {
    return { dropped: this.#dropped, failed: this.#failed, waiting: this.#jobs.length };
  }

  /** Queues a job; false when it was dropped. Never throws, never waits. */
  offer(job: () => Promise<unknown>): boolean {
    if (this.#jobs.length >= this.#capacity) {
      this.#dropped += 1;
      this.#warn('shadow outbox full: a shadow copy or record was dropped');
      return false;
    }
    this.#jobs.push(job);
    this.#running ??= this.#drain();
    return true;
  }

  /** Resolves when every job queued so far has run. */
  async flush(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    // Off the caller's turn: the live request goes on before any of this runs.
    await Promise.resolve();
    for (let job = this.#jobs.shift(); job; job = this.#jobs.shift()) {
      try {
        await job();
      } catch (error) {
        this.#failed += 1;
        this.#warn('a shadow copy or record could not be written', error);
      }
    }
    this.#running = undefined;
  }

  /** At most one warning a minute: a Redis outage must not flood the logs of the live service. */
  #warn(message: string, error?: unknown): void {
    if (Date.now() - this.#lastWarning < 60_000) return;
    this.#lastWarning = Date.now();
    this.#logger.warn({ err: error, dropped: this.#dropped, failed: this.#failed }, message);
  }
}
