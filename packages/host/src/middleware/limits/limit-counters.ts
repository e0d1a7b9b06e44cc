/** What a fixed-window count says after one more request. */
export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts over. */
  resetInMs: number;
}

/**
 * Where request limits keep their counts: requests per window, and the slots of tasks in flight.
 * {@link MemoryLimitCounters} counts in this process; `RedisLimitCounters` across every replica.
 * Every count expires by itself, so a crashed replica's slots are freed after their lease.
 */
export interface LimitCounters {
  /** Counts one request under `key` in a fixed window of `windowMs` that starts with its first request. */
  countRequest(key: string, windowMs: number): Promise<WindowCount>;
  /** Takes `slot` under `key` when fewer than `max` unexpired slots are held; the lease ends after `leaseMs`. */
  acquireSlot(key: string, slot: string, max: number, leaseMs: number): Promise<boolean>;
  /** Extends a held slot's lease to `leaseMs` from now (nothing when it has expired). */
  renewSlot(key: string, slot: string, leaseMs: number): Promise<void>;
  /** Gives a slot back. */
  releaseSlot(key: string, slot: string): Promise<void>;
  /**
   * How many unexpired slots `key` holds, for a refusal to say (optional: without it, a refusal
   * names the limit only).
   */
  slotsHeld?(key: string): Promise<number>;
}

/**
 * {@link LimitCounters} in this process only: right for one replica (the in-process system, tests),
 * not for several, which would each count on their own. Expired entries are dropped as it goes.
 *
 * @example
 * hostAgent({ agent, model, http: {}, limits: { counters: new MemoryLimitCounters() } });
 */
export class MemoryLimitCounters implements LimitCounters {
  readonly #windows = new Map<string, { count: number; endsAt: number }>();
  readonly #slots = new Map<string, Map<string, number>>();
  readonly #now: () => number;

  constructor({ now = Date.now }: { now?: () => number } = {}) {
    this.#now = now;
  }

  async countRequest(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.#now();
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.#windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async acquireSlot(key: string, slot: string, max: number, leaseMs: number): Promise<boolean> {
    const now = this.#now();
    const held = this.#live(key, now);
    if (held.size >= max) return false;
    held.set(slot, now + leaseMs);
    this.#slots.set(key, held);
    return true;
  }

  async renewSlot(key: string, slot: string, leaseMs: number): Promise<void> {
    const held = this.#live(key, this.#now());
    if (held.has(slot)) held.set(slot, this.#now() + leaseMs);
  }

  async releaseSlot(key: string, slot: string): Promise<void> {
    const held = this.#slots.get(key);
    held?.delete(slot);
    if (held?.size === 0) this.#slots.delete(key);
  }

  async slotsHeld(key: string): Promise<number> {
    return this.#live(key, this.#now()).size;
  }

  /** The unexpired slots of `key`. */
  #live(key: string, now: number): Map<string, number> {
    const held = this.#slots.get(key) ?? new Map<string, number>();
    for (const [slot, until] of held) if (until <= now) held.delete(slot);
    return held;
  }

  /** Drops ended windows once there are many, so callers who left cost nothing. */
  #sweep(now: number): void {
    if (this.#windows.size < 1_000) return;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }
}
