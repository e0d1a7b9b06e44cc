import { randomUUID } from 'node:crypto';

/** One use of an assertion, as a {@link ReplayGuard} records it. */
export interface AssertionUse {
  /** The service that signed it (`iss`). */
  issuer: string;
  /** Its unique id (`jti`). */
  jti: string;
  /** The queue job that carried it; undefined over HTTP, where every use but the first is a replay. */
  jobId: string | undefined;
  /** Until when (epoch ms) it must be remembered: its expiry plus the clock tolerance. */
  rememberUntil: number;
}

/**
 * Remembers the assertions a verifier has accepted until they expire, so each is used once: the
 * same assertion sent again (a job copied from Redis into a new job, a replayed HTTP request) is
 * refused, while the same job redelivered after a worker crashed (same job id) is still served.
 */
export interface ReplayGuard {
  /** Whether this is the first use of the assertion, or the same job again; records it if first. */
  firstUse(use: AssertionUse): Promise<boolean>;
}

/**
 * A {@link ReplayGuard} in this process's memory: for a single process (the in-process system,
 * tests). Replicas share `RedisReplayGuard` of `@switchboard/identity` instead.
 *
 * @example
 * serviceAssertionAuthenticator({ audience: 'orders', trustedKeys, replay: new MemoryReplayGuard() });
 */
export class MemoryReplayGuard implements ReplayGuard {
  readonly #seen = new Map<string, { holder: string; until: number }>();

  async firstUse({ issuer, jti, jobId, rememberUntil }: AssertionUse): Promise<boolean> {
    const now = Date.now();
    for (const [key, entry] of this.#seen) if (entry.until <= now) this.#seen.delete(key);
    const key = `${issuer}\u0000${jti}`;
    const seen = this.#seen.get(key);
    if (seen) return jobId !== undefined && seen.holder === jobId;
    // Over HTTP there is no job: a holder nobody can present again.
    this.#seen.set(key, { holder: jobId ?? `http:${randomUUID()}`, until: rememberUntil });
    return true;
  }
}
