import type { TaskState } from '@a2a-js/sdk';

/** What this process last wrote of a task's index entries. */
export interface WrittenTask {
  scope: string;
  contextId: string;
  state: TaskState | undefined;
  /** Which artifacts the task had, and how many parts each (see `artifactsSignature`). */
  artifacts: string;
  /** When the index keys' expiry was last pushed back (ms since the epoch). */
  indexesRefreshedAt: number;
  /** The task as written, `Task.toJSON` JSON: loads of a task running here are served from it. */
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
