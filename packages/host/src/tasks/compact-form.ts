/**
 * How tasks and their events are written in Redis: without what their key already names or what they
 * repeat. A task event in its stream (`<prefix>:task-events:<taskId>`) leaves out the task id, of
 * the event and of its messages, and a message's context id when it is the event's: about a fifth of
 * a status update. A stored task (`<prefix>:task:<id>`) leaves out its messages' ids in the same way,
 * and its status message when that message is also in its history (the SDK puts it there).
 *
 * Lossless for ProtoJSON, where an absent string and `""` are the same value: an id that differs
 * from the task's is kept as it is, and an absent (empty) one is written as `""`, so reading an entry
 * gives back exactly what was written.
 *
 * Each function rewrites what it is given, in place, and returns it: pass a fresh object (what
 * `toJSON` or `JSON.parse` returned), never one that is still in use.
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

type Change = (object: JsonObject, name: string, implied: string) => void;

/** Applies `change` to each message's ids, in place: the task's and its context's are implied. */
function rewriteMessages(body: JsonObject, taskId: string, change: Change): void {
  const contextId = typeof body.contextId === 'string' ? body.contextId : '';
  for (const message of messagesOf(body)) {
    change(message, 'taskId', taskId);
    change(message, 'contextId', contextId);
  }
}

/** Applies `change` to the event's body: its task id, then each message's ids. */
function rewrite(event: JsonObject, taskId: string, change: Change): JsonObject {
  const [kind, body] = Object.entries(event)[0] ?? [];
  if (kind === undefined || !isObject(body) || Object.keys(event).length !== 1) return event;
  change(body, kind === 'task' ? 'id' : 'taskId', taskId);
  rewriteMessages(body, taskId, change);
  return event;
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

/**
 * The key a compact stored task carries, `{ statusMessage?: <index> }`: it marks the form, and says
 * which history entry its status message is when that was left out.
 */
export const COMPACT_TASK_KEY = '$compact';

/**
 * The compact form of a stored task (`Task` ProtoJSON): its messages without the ids the task names,
 * and its status message, when its history holds the same message, as that entry's index.
 */
export function compactTask(task: JsonObject): JsonObject {
  const status = isObject(task.status) ? task.status : undefined;
  const message = isObject(status?.message) ? status.message : undefined;
  const history = Array.isArray(task.history) ? task.history : [];
  const index = message
    ? history.findLastIndex(
        (entry) =>
          isObject(entry) &&
          entry.messageId === message.messageId &&
          JSON.stringify(entry) === JSON.stringify(message),
      )
    : -1;
  rewriteMessages(task, typeof task.id === 'string' ? task.id : '', omit);
  if (status && index >= 0) {
    delete status.message;
    task[COMPACT_TASK_KEY] = { statusMessage: index };
  } else task[COMPACT_TASK_KEY] = {};
  return task;
}

/**
 * The task a stored entry holds: a compact one ({@link compactTask}) made whole again, one of the
 * full form (written before, without {@link COMPACT_TASK_KEY}) as it is. `taskId` is the key's.
 */
export function expandTask(taskId: string, stored: JsonObject): JsonObject {
  const form = stored[COMPACT_TASK_KEY];
  if (!isObject(form)) return stored;
  delete stored[COMPACT_TASK_KEY];
  rewriteMessages(stored, typeof stored.id === 'string' ? stored.id : taskId, fill);
  const index = form.statusMessage;
  const history = Array.isArray(stored.history) ? stored.history : [];
  // The same object twice: `Task.fromJSON` makes a message of each.
  if (typeof index === 'number' && isObject(stored.status) && isObject(history[index])) {
    stored.status.message = history[index];
  }
  return stored;
}
