import { type Message, type Task, TaskState } from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { TERMINAL_TASK_STATES } from '@switchboard/protocol';

/** States in which a task waits on its caller: nothing runs until the caller answers. */
const WAITING: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * The task a `SendMessage` answered while it still runs (a `returnImmediately` answer), or
 * undefined when the answer is a message or a task that has ended or waits on its caller.
 */
export function stillRunning(result: Message | Task): Task | undefined {
  if (!('status' in result)) return undefined;
  const state = result.status?.state;
  if (state === undefined || TERMINAL_TASK_STATES.has(state) || WAITING.has(state)) return undefined;
  return result;
}

/**
 * Settles when a task that was answered before it ended stops running (ends, or waits on its
 * caller), by following it with `resubscribe` on `handler`; also when it cannot be followed (gone,
 * or already over). Never rejects.
 *
 * @example
 * const running = stillRunning(await handler.sendMessage(params, call));
 * if (running) void untilTaskStops({ handler, task: running, call }).then(release);
 */
export async function untilTaskStops({
  handler,
  task,
  call,
  tenant = '',
}: {
  handler: Pick<A2ARequestHandler, 'resubscribe'>;
  task: Task;
  call: ServerCallContext;
  tenant?: string;
}): Promise<void> {
  try {
    for await (const _ of handler.resubscribe({ tenant, id: task.id }, call)) {
      // Each event is the task going on; the loop ends when it does.
    }
  } catch {
    // Gone or already over: either way it no longer runs.
  }
}
