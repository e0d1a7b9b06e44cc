import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '@switchboard/redis';
import type { AssertionUse, ReplayGuard } from './replay-guard.ts';

/** Options of {@link RedisReplayGuard}. */
export interface RedisReplayGuardOptions {
  redis: RedisConnection;
  /** Key prefix of the verifying service, e.g. its queue prefix `{switchboard:orders}`. */
  prefix: string;
}

/**
 * The assertions a service accepted, in Redis and shared by its replicas: one key per assertion
 * (`<prefix>:assertion:<iss>:<jti>`, set with NX and expiring with the assertion), holding the job
 * that carried it. A second use is refused unless it is that same job, redelivered.
 *
 * @example
 * const replay = new RedisReplayGuard({ redis, prefix: address.prefix });
 */
export class RedisReplayGuard implements ReplayGuard {
  readonly #redis: RedisConnection;
  readonly #prefix: string;

  constructor({ redis, prefix }: RedisReplayGuardOptions) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  async firstUse({ issuer, jti, jobId, rememberUntil }: AssertionUse): Promise<boolean> {
    const key = `${this.#prefix}:assertion:${issuer}:${jti}`;
    const ttl = Math.max(1, Math.ceil(rememberUntil - Date.now()));
    // Over HTTP there is no job: a holder nobody can present again.
    const holder = jobId ?? `http:${randomUUID()}`;
    if ((await this.#redis.set(key, holder, 'PX', ttl, 'NX')) === 'OK') return true;
    return jobId !== undefined && (await this.#redis.get(key)) === jobId;
  }
}
