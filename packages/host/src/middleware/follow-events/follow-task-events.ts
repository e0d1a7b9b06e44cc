import type { StreamResponse, SubscribeToTaskRequest, Task, TaskStatus } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import {
  type A2ARequestHandler,
  AgentEvent,
  type AgentExecutionEvent,
  InMemoryTaskStore,
  ResultManager,
  type ServerCallContext,
} from '@a2a-js/sdk/server';
import { STREAM_END_KEY, TERMINAL_TASK_STATES } from '@switchboard/protocol';
import { HostError } from '../../errors.ts';
import { callerGone, endsStream, requestedPosition, withPosition } from '../../tasks/event-position.ts';
import type { PositionedEvent, RedisTaskEventLog } from '../../tasks/task-event-log.ts';
import { withoutTransientHistory } from '../../tasks/transient-history.ts';
import { decorateHandler } from '../decorate-handler.ts';

/** Options of {@link followTaskEvents}. */
export interface FollowTaskEventsOptions {
  /** The SDK's request handler over the task store; its `getTask` decides who may see a task. */
  handler: A2ARequestHandler;
  /** The task event streams its event-bus manager (`RedisEventBusManager`) appends to. */
  log: RedisTaskEventLog;
}

/**
 * `SubscribeToTask` from any replica, as a request handler decorator: the subscription reads the
 * task's Redis Stream (see `RedisTaskEventLog`) instead of the SDK's in-process bus, so it follows a
 * task that runs on another replica, live, and several subscribers each get every event in order.
 *
 * - Without a position: the task as of the stream's newest event first (its last `task` event with
 *   the events after it folded in by the SDK's `ResultManager`, so no event falls between the snapshot
 *   and what follows), then every later event as it is added.
 * - With a position (`Last-Event-ID`, see `requestedPosition`): exactly the events after it, then
 *   live; a position the stream no longer holds (trimmed, expired) or never held: the snapshot, then
 *   live. Past the stream's bound the snapshot is the stored task, which can lag by the events being
 *   saved at that moment.
 * - Each event carries its position in its metadata (`EVENT_POSITION_KEY`).
 * - Ends, as the SDK does, on a status update into a terminal state or `INPUT_REQUIRED`; and when the
 *   stored task is found terminal while no event comes (a replica that died mid-task, whose task the
 *   ledger failed), with that status.
 * - Ends when no event has come for the log's `followerIdleMs` (default 5 minutes; a task waiting
 *   for an approval can wait for days), with a status update of the task's status as of its last
 *   event, at that event's position, marked `STREAM_END_KEY: 'idle'`: a stream that ends normally
 *   for the client, which resubscribes with `Last-Event-ID` set to that position to get what came
 *   since.
 * - Refuses what `GetTask` refuses (an unknown task, someone else's) with the same error; a task that
 *   has finished with nothing left to send gets the SDK's answer (`UnsupportedOperationError`).
 *
 * @example
 * const handler = followTaskEvents({ handler: new DefaultRequestHandler(card, store, executor, manager), log });
 */
export function followTaskEvents({ handler, log }: FollowTaskEventsOptions): A2ARequestHandler {
  const problems: string[] = [];
  if (typeof handler?.resubscribe !== 'function') problems.push('handler must be an A2A request handler');
  if (typeof log?.follow !== 'function') problems.push('log must be a RedisTaskEventLog');
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `followTaskEvents options are not valid: ${problems.join('; ')}.`,
    });
  }
  return decorateHandler(handler, {
    stream: (method, params, call, open) =>
      method === 'resubscribe'
        ? followTask({ handler, log, request: params as SubscribeToTaskRequest, call, open })
        : open(),
  });
}

interface FollowTask {
  handler: A2ARequestHandler;
  log: RedisTaskEventLog;
  request: SubscribeToTaskRequest;
  call: ServerCallContext;
  open: () => AsyncGenerator<StreamResponse, void, undefined>;
}

async function* followTask({
  handler,
  log,
  request,
  call,
  open,
}: FollowTask): AsyncGenerator<StreamResponse, void, undefined> {
  const card = await handler.getAgentCard();
  if (!card.capabilities?.streaming) {
    yield* open(); // the SDK refuses it
    return;
  }
  const after = requestedPosition(call);
  const load = () => handler.getTask({ tenant: request.tenant, id: request.id }, call);
  const stored = await load();
  const taskId = stored.id;
  const bounds = after === undefined ? undefined : await log.bounds(taskId);
  let from: number;
  let snapshotStatus: TaskStatus | undefined;
  if (after !== undefined && bounds && after >= bounds.first - 1 && after <= bounds.last) {
    if (after === bounds.last) refuseFinished(stored);
    from = after;
  } else {
    const snapshot = await snapshotOf({ log, taskId, call, load });
    refuseFinished(snapshot.task);
    yield withPosition({ payload: { $case: 'task', value: snapshot.task } }, snapshot.position);
    from = snapshot.position;
    snapshotStatus = snapshot.task.status;
  }
  let status = snapshotStatus;
  let quietSince = Date.now();
  for await (const read of log.follow(taskId, { after: from, signal: callerGone(call) })) {
    if (read) {
      yield withPosition(read.event, read.position);
      if (endsStream(read.event)) return;
      from = read.position;
      status = statusOf(read.event) ?? status;
      quietSince = Date.now();
      continue;
    }
    // Nothing for a while: a task whose replica died is failed in the store, not on its stream.
    const now = await load();
    if (now.status && TERMINAL_TASK_STATES.has(now.status.state)) {
      yield {
        payload: {
          $case: 'statusUpdate',
          value: { taskId, contextId: now.contextId, status: now.status, metadata: {} },
        },
      };
      return;
    }
    // Nothing for the idle time (a task waiting for an approval can wait for days): the stream ends
    // with the task's status as of its last event, at that event's position, to resume from there.
    if (Date.now() - quietSince >= log.followerIdleMs) {
      const metadata = { [STREAM_END_KEY]: 'idle' };
      const value = { taskId, contextId: now.contextId, status: status ?? now.status, metadata };
      yield withPosition({ payload: { $case: 'statusUpdate', value } }, from);
      return;
    }
  }
}

/** The status a stream event carries, if any. */
function statusOf(event: StreamResponse): TaskStatus | undefined {
  const payload = event.payload;
  if (payload?.$case === 'task' || payload?.$case === 'statusUpdate') return payload.value.status;
  return undefined;
}

/** The SDK's answer to a subscription to a finished task. */
function refuseFinished(task: Task): void {
  const state = task.status?.state;
  if (state !== undefined && TERMINAL_TASK_STATES.has(state)) {
    throw new UnsupportedOperationError(
      `Task ${task.id} is in a terminal state (${state}) and cannot be subscribed to.`,
    );
  }
}

/**
 * The task as of the stream's newest event, and that event's position: the last `task` event folded
 * with the events after it, or, when the stream holds no `task` event any more, the stored task.
 */
async function snapshotOf({
  log,
  taskId,
  call,
  load,
}: {
  log: RedisTaskEventLog;
  taskId: string;
  call: ServerCallContext;
  load: () => Promise<Task>;
}): Promise<{ task: Task; position: number }> {
  const { events, last } = await log.sinceLastTask(taskId);
  if (events.length === 0) return { task: await load(), position: last };
  const results = new ResultManager(new InMemoryTaskStore(), call);
  for (const read of events) {
    const event = agentEventOf(read);
    if (event) await results.processEvent(event);
  }
  // As the task is stored: lines marked transient are on the stream, not in the history.
  const task = results.getCurrentTask();
  return { task: task ? withoutTransientHistory(task) : await load(), position: last };
}

function agentEventOf({ event }: PositionedEvent): AgentExecutionEvent | undefined {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return AgentEvent.task(payload.value);
    case 'statusUpdate':
      return AgentEvent.statusUpdate(payload.value);
    case 'artifactUpdate':
      return AgentEvent.artifactUpdate(payload.value);
    default:
      return undefined;
  }
}
