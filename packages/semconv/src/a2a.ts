/**
 * `a2a.*` attributes of the A2A CLIENT and SERVER spans, from the A2A conventions of the
 * `semantic-conventions-genai` repository (status "Development"). Every name here is theirs. The A2A
 * `contextId` has no `a2a.*` name: it goes in `gen_ai.conversation.id` ({@link GEN_AI}).
 */
export const A2A = {
  /** Required: the A2A method ({@link A2aMethod}), which is also the span's name. */
  method: 'a2a.method.name',
  /** The protocol version the call was made or served in: `1.0` or `0.3`. */
  protocolVersion: 'a2a.protocol.version',
  /** The request's `tenant`, when set. */
  tenant: 'a2a.tenant',
  /** The request message's `messageId`. */
  messageId: 'a2a.message.id',
  /** The request message's `referenceTaskIds`, when it has any. */
  referenceTaskIds: 'a2a.message.reference_task_ids',
  taskId: 'a2a.task.id',
  /** The proto enum name: `TASK_STATE_COMPLETED`, `TASK_STATE_INPUT_REQUIRED`, … */
  taskState: 'a2a.task.state',
} as const;

/** The A2A v1.0 methods: the values of `a2a.method.name` and the names of their spans. */
export type A2aMethod =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'GetExtendedAgentCard'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig';

/** The name of an A2A CLIENT or SERVER span: the method itself, e.g. `SendMessage`. */
export function a2aSpanName({ method }: { method: A2aMethod }): string {
  return method;
}
