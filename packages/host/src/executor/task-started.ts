/**
 * The `ServerCallContext.state` key of the executor's one hook: a layer above it (the queue's
 * `deduplicateMessages`) puts a {@link TaskStartedHook} there to learn which task a message started,
 * and the executor calls it once the task id is known, before the work begins. With it, a redelivered
 * job continues the task its first delivery started instead of starting another. Both halves live in
 * this package: the hook is hosting's, not the transport's.
 */
export const TASK_STARTED_HOOK = 'switchboard.a2a.taskStarted';

/** Called once a message's task id is known, before the agent runs. */
export type TaskStartedHook = (started: {
  taskId: string;
  contextId: string;
  messageId: string;
}) => Promise<void>;

declare module '@switchboard/protocol' {
  interface CallVariables {
    /** Set by a delivery policy above the executor: how the executor reports the task it started. */
    [TASK_STARTED_HOOK]: TaskStartedHook;
  }
}
