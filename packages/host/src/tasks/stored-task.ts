import { Task } from '@a2a-js/sdk';
import type { Logger } from '@switchboard/agent';
import type { RedisConnection } from '@switchboard/redis';
import { z } from 'zod';
import { compactTask, expandTask } from './compact-form.ts';
import type { TaskStoreKeys } from './task-store-keys.ts';

const JsonObject = z.record(z.string(), z.unknown());

/**
 * The stored shape of a task: the ProtoJSON written by `Task.toJSON` (made whole again from its
 * compact form, see `compact-form.ts`). Checked before `Task.fromJSON`, which accepts anything (it
 * would turn garbage into an empty task rather than fail).
 */
export const StoredTask = z.looseObject({
  id: z.string().min(1),
  contextId: z.string().optional(),
  status: z.looseObject({ state: z.string().optional(), timestamp: z.string().optional() }).optional(),
  history: z.array(JsonObject).optional(),
  artifacts: z.array(JsonObject).optional(),
  metadata: JsonObject.optional(),
});
export type StoredTask = z.infer<typeof StoredTask>;

/** The result of {@link readStoredTask}: the task, or why the stored text is not one. */
export type StoredTaskResult = { ok: true; task: Task } | { ok: false; reason: string };

/** The text a task is stored as: its ProtoJSON in the compact form. */
export function storedTaskJson(task: Task): string {
  return JSON.stringify(compactTask(Task.toJSON(task) as Record<string, unknown>));
}

/** A task from text this process wrote with {@link storedTaskJson} (not checked: it is our own). */
export function taskOfOwnJson(taskId: string, json: string): Task {
  return Task.fromJSON(expandTask(taskId, JSON.parse(json)));
}

/** Parses and validates one stored task; never throws. `expectedId` guards against a misplaced entry. */
export function readStoredTask({ json, expectedId }: { json: string; expectedId: string }): StoredTaskResult {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = StoredTask.safeParse(isJsonObject(raw) ? expandTask(expectedId, raw) : raw);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  if (parsed.data.id !== expectedId) return { ok: false, reason: `holds task "${parsed.data.id}"` };
  try {
    return { ok: true, task: Task.fromJSON(parsed.data) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
}

/** Options of {@link loadStoredTasks}. */
export interface LoadStoredTasksOptions {
  redis: RedisConnection;
  keys: TaskStoreKeys;
  ids: readonly string[];
  /** The caller's owner scope: a task stored under another scope reads as absent. */
  scope: string;
  logger: Pick<Logger, 'warn'>;
  /** Told of each id whose task key and owner key are both absent (not merely someone else's). */
  onAbsent?: (id: string) => void;
}

/** Reads tasks in one MGET, in the order of `ids`; absent, foreign or corrupt (logged) ones are `undefined`. */
export async function loadStoredTasks({
  scope,
  ...options
}: LoadStoredTasksOptions): Promise<(Task | undefined)[]> {
  const legacy = options.keys.legacyScope(scope);
  const found = await loadScopedTasks({ ...options, accept: (owner) => owner === scope || owner === legacy });
  return found.map((entry) => entry?.task);
}

/**
 * Loads tasks by id with the scope each is stored under, whatever it is (trusted server code only:
 * the operators' directory); with `accept`, only tasks of the scopes it accepts. An id without a
 * task gives undefined (and `onAbsent` when neither the task nor its owner is there).
 */
export async function loadScopedTasks({
  redis,
  keys,
  ids,
  logger,
  onAbsent,
  accept = () => true,
}: Omit<LoadStoredTasksOptions, 'scope'> & { accept?: (scope: string) => boolean }): Promise<
  ({ task: Task; scope: string } | undefined)[]
> {
  if (ids.length === 0) return [];
  const values = await redis.mget(...ids.flatMap((id) => [keys.task(id), keys.owner(id)]));
  return ids.map((id, i) => {
    const json = values[2 * i];
    const owner = values[2 * i + 1];
    if ((json ?? null) === null && (owner ?? null) === null) onAbsent?.(id);
    if (json === null || json === undefined || owner === null || owner === undefined || !accept(owner))
      return undefined;
    const read = readStoredTask({ json, expectedId: id });
    if (read.ok) return { task: read.task, scope: owner };
    logger.warn({ taskId: id, key: keys.task(id), reason: read.reason }, 'corrupt task entry ignored');
    return undefined;
  });
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
