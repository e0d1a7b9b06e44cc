import type { TaskState } from '@a2a-js/sdk';

/** What this process last wrote of a task's index entries. */
export interface WrittenTask {
  scope: string;
  contextId: string;
  state: TaskState | undefined;
  /** Which artifacts the task had, and how many parts each (see `artifactsSignature`). */
  artifacts: string;
  /** The TTL the task was last written with, ms. */
  ttlMs: number;
  /** When its owner key and expiry entry were last written (ms since the epoch). */
  horizonWrittenAt: number;
  /** The task as written (`storedTaskJson`): loads of a task running here are served from it. */
  json: string;
}

/**
 * The index entries this process wrote for the tasks it runs (and the task as written), so the next save of the
 * same task writes only what changed (its score, and its state index when the state moved) instead
 * of removing it from every other state's index and pushing back every index's expiry again.
 * Bounded: the least recently saved tasks are forgotten first, and a forgotten task's next save
 * writes everything, as the first one did.
 */
export class WrittenTasks {
  readonly #tasks = new Map<string, WrittenTask>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  get(taskId: string): WrittenTask | undefined {
    return this.#tasks.get(taskId);
  }

  set(taskId: string, written: WrittenTask): void {
    this.#tasks.delete(taskId);
    this.#tasks.set(taskId, written);
    if (this.#tasks.size > this.#capacity) {
      const oldest = this.#tasks.keys().next();
      if (!oldest.done) this.#tasks.delete(oldest.value);
    }
  }

  forget(taskId: string): void {
    this.#tasks.delete(taskId);
  }
}

/** What a save must not hold back when it changes: the artifacts, and the parts of each. */
export function artifactsSignature(task: {
  artifacts?: readonly { artifactId: string; parts?: readonly unknown[] }[];
}): string {
  return (task.artifacts ?? [])
    .map((artifact) => `${artifact.artifactId}:${artifact.parts?.length ?? 0}`)
    .join(',');
}

/** A bounded set of task ids, the oldest forgotten first. */
export class RecentIds {
  readonly #ids = new Set<string>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  add(id: string): void {
    this.#ids.delete(id);
    this.#ids.add(id);
    if (this.#ids.size > this.#capacity) {
      const oldest = this.#ids.values().next();
      if (!oldest.done) this.#ids.delete(oldest.value);
    }
  }

  /** True (and forgotten) when the id was there. */
  delete(id: string): boolean {
    return this.#ids.delete(id);
  }
}

/**
 * When this process last pushed back each index key's expiry (bounded), so it does at most once per
 * `everyMs` per key. A key emptied and made again meanwhile (a state index, say) may go without an
 * expiry until the next push, at most `everyMs` after.
 */
export class IndexExpiries {
  readonly #at = new Map<string, number>();
  readonly #everyMs: number;
  readonly #capacity: number;

  constructor(everyMs: number, capacity = 10_000) {
    this.#everyMs = everyMs;
    this.#capacity = capacity;
  }

  /** True when `key`'s expiry is due to be pushed back at `now` (and records that it is). */
  due(key: string, now: number): boolean {
    const last = this.#at.get(key);
    if (last !== undefined && now - last < this.#everyMs) return false;
    this.#at.delete(key);
    this.#at.set(key, now);
    if (this.#at.size > this.#capacity) {
      const oldest = this.#at.keys().next();
      if (!oldest.done) this.#at.delete(oldest.value);
    }
    return true;
  }
}
