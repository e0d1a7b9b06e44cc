/**
 * How a task event is written in its stream, `<prefix>:task-events:<taskId>`. The stream's key names
 * the task, and each event names its context once, so an entry leaves out what it would otherwise
 * repeat: the task id (of the event and of its messages) and the messages' context id, when they are
 * the task's. About a fifth of a status update.
 *
 * Lossless for ProtoJSON, where an absent string and `""` are the same value: an id that differs
 * from the task's is kept as it is, and an absent (empty) one is written as `""`, so reading an entry
 * gives back exactly the event that was written.
 */

type JsonObject = Record<string, unknown>;

/** The entry field of the compact form ({@link compactEvent}). */
export const COMPACT_EVENT_FIELD = 'c';
/** The entry field of the full form, as written before the compact one; still read. */
export const FULL_EVENT_FIELD = 'e';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Drops `name` when it is `implied`; writes `""` for an absent one, so it is not filled back in. */
function omit(object: JsonObject, name: string, implied: string): void {
  const value = typeof object[name] === 'string' ? object[name] : '';
  if (value === implied) delete object[name];
  else if (value === '') object[name] = '';
}

/** The inverse of {@link omit}: an absent `name` is `implied`, a `""` one is absent. */
function fill(object: JsonObject, name: string, implied: string): void {
  if (!(name in object)) {
    if (implied !== '') object[name] = implied;
  } else if (object[name] === '') delete object[name];
}

/** The messages of an event: a status's message, and a task's history. */
function messagesOf(body: JsonObject): JsonObject[] {
  const status = isObject(body.status) ? body.status : undefined;
  const history = Array.isArray(body.history) ? body.history.filter(isObject) : [];
  return isObject(status?.message) ? [status.message, ...history] : history;
}

/** Applies `change` to a copy of the event's body: its task id, then each message's ids. */
function rewrite(
  event: JsonObject,
  taskId: string,
  change: (object: JsonObject, name: string, implied: string) => void,
): JsonObject {
  const [kind, value] = Object.entries(event)[0] ?? [];
  if (kind === undefined || !isObject(value) || Object.keys(event).length !== 1) return event;
  const body = structuredClone(value);
  change(body, kind === 'task' ? 'id' : 'taskId', taskId);
  const contextId = typeof body.contextId === 'string' ? body.contextId : '';
  for (const message of messagesOf(body)) {
    change(message, 'taskId', taskId);
    change(message, 'contextId', contextId);
  }
  return { [kind]: body };
}

/**
 * The compact entry of a task event (`StreamResponse` ProtoJSON with one of `task`, `statusUpdate`,
 * `artifactUpdate`) in the stream of task `taskId`. Anything else is returned as it is.
 */
export function compactEvent(taskId: string, event: JsonObject): JsonObject {
  return rewrite(event, taskId, omit);
}

/** The event a compact entry of task `taskId`'s stream was written from. */
export function expandEvent(taskId: string, entry: JsonObject): JsonObject {
  return rewrite(entry, taskId, fill);
}
