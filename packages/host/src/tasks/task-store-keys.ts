import type { TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { legacyPrincipalKey } from '@switchboard/agent';

/**
 * The Redis pub/sub channel on which {@link RedisTaskStore} publishes the id of every task saved in
 * state `TASK_STATE_CANCELED`, so the replica running that task can abort it. The message is the bare
 * task id; a subscriber must treat repeats as harmless (each save of a canceled task publishes).
 *
 * @example
 * await subscriber.subscribe(taskCanceledChannel('{switchboard:orders}'));
 */
export function taskCanceledChannel(prefix: string): string {
  return `${prefix}:task-canceled`;
}

/** Every state a task can be indexed under (UNRECOGNIZED excluded). */
export const INDEXED_TASK_STATES: readonly TaskState[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/**
 * Key names of one store. A task lives at `<prefix>:task:<id>` (its `Task.toJSON` JSON, compact) with its owner
 * scope at `<prefix>:task-owner:<id>`; each owner scope (tenant + owner, URI-encoded) has its indexes
 * under `<prefix>:tasks:<scope>`. Put a `{hash tag}` in the prefix for Redis Cluster.
 */
export class TaskStoreKeys {
  readonly prefix: string;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  task(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  owner(taskId: string): string {
    return `${this.prefix}:task-owner:${taskId}`;
  }

  /** Set when a task is saved canceled: saves of another state are refused while it exists. */
  canceled(taskId: string): string {
    return `${this.prefix}:task-canceled:${taskId}`;
  }

  /** The scope string stored next to each task and used in index key names. */
  scope(tenant: string, owner: string): string {
    return `${encodeURIComponent(tenant)}:${encodeURIComponent(owner)}`;
  }

  /**
   * The scope a user's task was stored under before 0.3, when the owner's principal key had the
   * older kind word (see `legacyPrincipalKey`); undefined for any other scope. A task of that scope
   * still loads by id for its user.
   */
  legacyScope(scope: string): string | undefined {
    const at = scope.indexOf(':');
    const legacy = legacyPrincipalKey(decodeURIComponent(scope.slice(at + 1)));
    return legacy === undefined ? undefined : `${scope.slice(0, at)}:${encodeURIComponent(legacy)}`;
  }

  /** All tasks of a scope, scored by status timestamp (ms). */
  index(scope: string): string {
    return `${this.prefix}:tasks:${scope}`;
  }

  /** The tasks of a scope currently in `state`; the state number is appended to this base. */
  stateIndexBase(scope: string): string {
    return `${this.index(scope)}:state:`;
  }

  stateIndex(scope: string, state: TaskState): string {
    return `${this.stateIndexBase(scope)}${state}`;
  }

  /** The tasks of one context; the URI-encoded contextId is appended to this base. */
  contextIndexBase(scope: string): string {
    return `${this.index(scope)}:ctx:`;
  }

  contextIndex(scope: string, contextId: string): string {
    return `${this.contextIndexBase(scope)}${encodeURIComponent(contextId)}`;
  }

  /** Hash task id → encoded contextId, so expired tasks can be pruned from their context index. */
  contextOf(scope: string): string {
    return `${this.index(scope)}:ctx-of`;
  }

  /** Task ids scored by the time (ms) their task key expires. */
  expiry(scope: string): string {
    return `${this.index(scope)}:expiry`;
  }

  /** Every scope's tasks in one index, scored by status timestamp (ms): what operators look through. */
  recent(): string {
    return `${this.prefix}:tasks-recent`;
  }

  /** The tenant and owner a scope string (see {@link scope}) names. */
  parseScope(scope: string): { tenant: string; owner: string } {
    const at = scope.indexOf(':');
    return { tenant: decodeURIComponent(scope.slice(0, at)), owner: decodeURIComponent(scope.slice(at + 1)) };
  }
}

/** A sorted-set score for a status timestamp; tasks without a (parseable) one sort last. */
export function timestampScore(timestamp: string | undefined): number {
  const ms = timestamp ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** Reads a sorted-set score as RESP2 (`"123"`, `"-inf"`) or RESP3 (a number) returns it. */
export function parseScore(reply: unknown): number | undefined {
  if (typeof reply === 'number') return reply;
  if (typeof reply !== 'string') return undefined;
  if (reply === '-inf') return Number.NEGATIVE_INFINITY;
  if (reply === 'inf' || reply === '+inf') return Number.POSITIVE_INFINITY;
  const score = Number(reply);
  return Number.isNaN(score) ? undefined : score;
}

/** The page cursor, in the same format as the SDK's InMemoryTaskStore: base64 of `<timestamp>|<id>`. */
export function encodePageToken(timestamp: string, id: string): string {
  return Buffer.from(`${timestamp}|${id}`).toString('base64');
}

/** Reads a page token; throws the SDK's RequestMalformedError (HTTP 400) when it is not one. */
export function decodePageToken(pageToken: string): { timestamp: string; id: string } {
  const [timestamp = '', ...idParts] = Buffer.from(pageToken, 'base64').toString('utf-8').split('|');
  if (idParts.length === 0) throw new RequestMalformedError('Invalid page token format.');
  return { timestamp, id: idParts.join('|') };
}
