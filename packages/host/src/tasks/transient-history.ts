import { Role, type Task } from '@a2a-js/sdk';
import { TRANSIENT_KEY } from '@switchboard/protocol';

/**
 * The task as stored: its history without the agent's progress lines marked transient
 * (`TRANSIENT_KEY`), which its event stream keeps; its status keeps the current one. A caller's own
 * message is kept whatever its metadata says.
 */
export function withoutTransientHistory(task: Task): Task {
  const transient = (message: Task['history'][number]) =>
    message.role === Role.ROLE_AGENT && message.metadata?.[TRANSIENT_KEY] === true;
  return task.history?.some(transient)
    ? { ...task, history: task.history.filter((m) => !transient(m)) }
    : task;
}
