import { type Principal, principalKey } from '@switchboard/agent';
import { HostError } from '../../errors.ts';
import { LEGACY_USER_LIMITS, type LegacyHostLimits } from './deprecated.ts';
import type { LimitCounters } from './limit-counters.ts';
import type { IdLimits } from './request-ids.ts';

/** The limits of one kind of caller. `Infinity` turns a limit off. */
export interface RequestLimits {
  /** Bytes of content in one message: text, data, files, metadata (see `messageContentBytes`). */
  maxMessageBytes?: number;
  /** Parts in one message. */
  maxMessageParts?: number;
  /** Calls per minute per caller, whatever the method (a fixed one-minute window). */
  requestsPerMinute?: number;
  /** Tasks one caller may have running at once, across every replica. */
  maxTasksInFlight?: number;
  /**
   * Streams one caller may hold open at once (`SendStreamingMessage`, `SubscribeToTask`), across
   * every replica.
   */
  maxOpenStreams?: number;
}

/**
 * Request limits by kind of caller, each merged over {@link DEFAULT_REQUEST_LIMITS}:
 *
 * | caller | message content | parts | requests/min | tasks in flight | open streams |
 * | --- | --- | --- | --- | --- | --- |
 * | users | 16 KiB | 20 | 60 | 5 | 10 |
 * | operators | 16 KiB | 20 | 600 | 20 | 20 |
 * | services (and requests a service makes on someone's behalf) | 64 KiB | 50 | none | none | none |
 *
 * A caller without a principal (a host without auth) gets the users' size limits only: rate and
 * concurrency are counted per principal.
 */
export interface HostLimits extends LegacyHostLimits<RequestLimits> {
  /** End users (principal kind `user`), each counted on their own. */
  users?: RequestLimits;
  operators?: RequestLimits;
  services?: RequestLimits;
  /** Bounds on the ids, tenant and extension URIs of every call, whoever calls (see `IdLimits`). */
  ids?: IdLimits;
  /**
   * Where counts are kept. `hostAgent`'s default: Redis under the queue's prefix when the host has a
   * queue (so every replica counts together), else this process (`MemoryLimitCounters`).
   */
  counters?: LimitCounters;
  /**
   * How long a task's in-flight slot (or an open stream's) lasts unrenewed (default 60 000 ms); a
   * running task renews it every third of that, so the slots of a replica that crashed are free
   * again after it.
   */
  slotLeaseMs?: number;
}

/** Every limit set. */
export type ResolvedLimits = Required<RequestLimits>;

/** The kinds of caller limits are set for, as {@link HostLimits} names them. */
export type LimitedKind = 'users' | 'operators' | 'services';

/** The defaults of {@link HostLimits}, by kind of caller. */
const USER_DEFAULTS: ResolvedLimits = {
  maxMessageBytes: 16 * 1024,
  maxMessageParts: 20,
  requestsPerMinute: 60,
  maxTasksInFlight: 5,
  maxOpenStreams: 10,
};

export const DEFAULT_REQUEST_LIMITS: Readonly<
  Record<LimitedKind, ResolvedLimits> & LegacyHostLimits<ResolvedLimits>
> = {
  users: USER_DEFAULTS,
  [LEGACY_USER_LIMITS]: USER_DEFAULTS,
  operators: {
    maxMessageBytes: 16 * 1024,
    maxMessageParts: 20,
    requestsPerMinute: 600,
    maxTasksInFlight: 20,
    maxOpenStreams: 20,
  },
  services: {
    maxMessageBytes: 64 * 1024,
    maxMessageParts: 50,
    requestsPerMinute: Number.POSITIVE_INFINITY,
    maxTasksInFlight: Number.POSITIVE_INFINITY,
    maxOpenStreams: Number.POSITIVE_INFINITY,
  },
};

/** Who a call counts against, and the limits that apply. */
export interface LimitedCaller {
  /** The key counts are kept under (`user:u-1024`); undefined for a caller without a principal. */
  key: string | undefined;
  limits: ResolvedLimits;
}

/** The limits of every kind of caller, checked: throws `INVALID_OPTIONS` naming each bad one. */
export function resolveLimits(limits: HostLimits = {}): Record<LimitedKind, ResolvedLimits> {
  const problems: string[] = [];
  const given = { ...limits, users: limits.users ?? limits[LEGACY_USER_LIMITS] };
  if (limits.users !== undefined && limits[LEGACY_USER_LIMITS] !== undefined) {
    problems.push(
      `${LEGACY_USER_LIMITS} is the deprecated name of users and both are given; keep only users`,
    );
  }
  const resolve = (kind: LimitedKind): ResolvedLimits => {
    const merged = { ...DEFAULT_REQUEST_LIMITS[kind], ...given[kind] };
    for (const [name, value] of Object.entries(merged)) {
      if (value !== Number.POSITIVE_INFINITY && !(Number.isInteger(value) && value >= 1)) {
        problems.push(
          `${kind}.${name} must be a whole number of at least 1, or Infinity for no limit (got ${value})`,
        );
      }
    }
    return merged;
  };
  const resolved = {
    users: resolve('users'),
    operators: resolve('operators'),
    services: resolve('services'),
  };
  const lease = limits.slotLeaseMs;
  if (lease !== undefined && !(Number.isInteger(lease) && lease >= 1_000)) {
    problems.push(`slotLeaseMs must be a whole number of milliseconds, at least 1000 (got ${lease})`);
  }
  if (limits.counters !== undefined && typeof limits.counters.countRequest !== 'function') {
    problems.push('counters must be LimitCounters, e.g. new MemoryLimitCounters()');
  }
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', { message: `limits are not valid: ${problems.join('; ')}.` });
  }
  return resolved;
}

/**
 * Whom a call counts against: a service, or a request a service makes on someone's behalf, counts
 * against that service with the services' limits; operators and users against themselves.
 */
export function limitedCaller(
  principal: Principal | undefined,
  limits: Record<LimitedKind, ResolvedLimits>,
): LimitedCaller {
  if (!principal) {
    const { maxMessageBytes, maxMessageParts } = limits.users;
    return {
      key: undefined,
      limits: {
        maxMessageBytes,
        maxMessageParts,
        requestsPerMinute: Number.POSITIVE_INFINITY,
        maxTasksInFlight: Number.POSITIVE_INFINITY,
        maxOpenStreams: Number.POSITIVE_INFINITY,
      },
    };
  }
  const lastHop = principal.via.at(-1);
  if (lastHop !== undefined) return { key: `service:${lastHop}`, limits: limits.services };
  const kind =
    principal.kind === 'service' ? 'services' : principal.kind === 'operator' ? 'operators' : 'users';
  return { key: principalKey(principal), limits: limits[kind] };
}
