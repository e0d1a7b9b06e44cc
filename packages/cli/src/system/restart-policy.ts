import { CliError } from '../errors.ts';

/** How the launcher restarts a service that exits by itself. Every field is optional. */
export interface RestartPolicy {
  /** Wait before the first restart (default 500 ms); each crash within the window doubles it. */
  initialDelayMs?: number;
  /** The longest wait before a restart (default 8 000 ms). */
  maxDelayMs?: number;
  /** This many crashes of one service within `windowMs` stop the whole system (default 5). */
  maxCrashes?: number;
  /** The window in which crashes count (default 60 000 ms). */
  windowMs?: number;
}

/** A {@link RestartPolicy} with every default filled in. */
export type ResolvedRestartPolicy = Required<RestartPolicy>;

const DEFAULTS: ResolvedRestartPolicy = {
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxCrashes: 5,
  windowMs: 60_000,
};

/** Fills in the defaults; throws `CliError` (`INVALID_SETTING`) naming a field that is not valid. */
export function resolveRestartPolicy(policy: RestartPolicy = {}): ResolvedRestartPolicy {
  const resolved = { ...DEFAULTS, ...policy };
  for (const field of ['initialDelayMs', 'maxDelayMs', 'windowMs'] as const) {
    const value = resolved[field];
    if (!Number.isFinite(value) || value <= 0) {
      throw new CliError('INVALID_SETTING', {
        message: `restart.${field} must be a positive number of milliseconds, got ${value}.`,
      });
    }
  }
  if (!Number.isInteger(resolved.maxCrashes) || resolved.maxCrashes < 1) {
    throw new CliError('INVALID_SETTING', {
      message: `restart.maxCrashes must be a whole number of at least 1, got ${resolved.maxCrashes}.`,
    });
  }
  return resolved;
}

/** What to do about a crash: restart after a delay, or give up. */
export type CrashVerdict =
  | { restart: true; delayMs: number; crashes: number }
  | { restart: false; crashes: number; windowMs: number };

/**
 * One service's recent crashes. Each crash within the window doubles the wait before the restart,
 * up to the cap; `maxCrashes` of them within the window mean it will not get better by itself.
 */
export class CrashHistory {
  readonly #policy: ResolvedRestartPolicy;
  #crashes: number[] = [];

  constructor(policy: ResolvedRestartPolicy) {
    this.#policy = policy;
  }

  /** Records a crash at `now` (epoch ms) and says what to do about it. */
  record(now: number): CrashVerdict {
    const { initialDelayMs, maxDelayMs, maxCrashes, windowMs } = this.#policy;
    this.#crashes = [...this.#crashes.filter((at) => now - at < windowMs), now];
    const crashes = this.#crashes.length;
    if (crashes >= maxCrashes) return { restart: false, crashes, windowMs };
    return { restart: true, crashes, delayMs: Math.min(maxDelayMs, initialDelayMs * 2 ** (crashes - 1)) };
  }
}
