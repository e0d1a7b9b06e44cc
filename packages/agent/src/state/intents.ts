/** Where a non-idempotent action stands. `unknown`: it may or may not have happened (e.g. a timeout). */
export type IntentStatus = 'in_progress' | 'succeeded' | 'failed' | 'unknown';

/** The record of one non-idempotent action, kept before it runs so it never runs twice. */
export interface IntentRecord {
  key: string;
  tool: string;
  status: IntentStatus;
  startedAt: string;
  finishedAt?: string;
  /** The data the action returned, replayed when the same action is asked for again. */
  result?: unknown;
}

/** The answer of {@link IntentStore.begin}: go ahead, or what is already recorded. */
export type IntentBegin = { started: true } | { started: false; existing: IntentRecord };

/** What {@link IntentStore.begin} records: the action's idempotency key and tool, and when. */
export interface IntentStart {
  key: string;
  tool: string;
  now: Date;
}

/** What {@link IntentStore.finish} records: how the action ended, and its result when it has one. */
export interface IntentFinish {
  key: string;
  status: Exclude<IntentStatus, 'in_progress'>;
  result?: unknown;
  now: Date;
}

/**
 * Intent records for non-idempotent tools. `begin` must be atomic (set-if-absent), so two replicas
 * racing on the same action cannot both start it; a Redis adapter uses `SET NX`.
 */
export interface IntentStore {
  /** Records the intent as `in_progress` unless a record exists that is not `failed`. */
  begin(input: IntentStart): Promise<IntentBegin>;
  /** Records how the action ended. */
  finish(input: IntentFinish): Promise<void>;
  get(key: string): Promise<IntentRecord | undefined>;
}

/** An in-process intent store, for one process and for tests. */
export class MemoryIntentStore implements IntentStore {
  readonly #records = new Map<string, IntentRecord>();

  async begin({ key, tool, now }: IntentStart): Promise<IntentBegin> {
    const existing = this.#records.get(key);
    if (existing && existing.status !== 'failed')
      return { started: false, existing: structuredClone(existing) };
    this.#records.set(key, { key, tool, status: 'in_progress', startedAt: now.toISOString() });
    return { started: true };
  }

  async finish({ key, status, result, now }: IntentFinish): Promise<void> {
    const record = this.#records.get(key);
    if (!record) return;
    this.#records.set(key, {
      ...record,
      status,
      finishedAt: now.toISOString(),
      ...(result === undefined ? {} : { result }),
    });
  }

  async get(key: string): Promise<IntentRecord | undefined> {
    const record = this.#records.get(key);
    return record && structuredClone(record);
  }
}
