/**
 * Span and attribute names of the A2A hops, after the OpenTelemetry conventions (all "Development"):
 * the GenAI A2A spans (named after the method, `a2a.*` attributes, `gen_ai.conversation.id` = the
 * A2A contextId) and the messaging spans (`send <queue>` PRODUCER, `process <queue>` CONSUMER).
 * The one place these strings are spelled in this package, so it alone changes if they move to a
 * shared table.
 */

/** The instrumentation scope of every span this package opens. */
export const A2A_TRACER_NAME = '@switchboard/a2a';

/** `a2a.*` attributes of the A2A CLIENT and SERVER spans. */
export const A2A_ATTR = {
  /** `SendMessage`, `GetTask`, …: also the span name. */
  method: 'a2a.method.name',
  taskId: 'a2a.task.id',
  /** The proto enum name: `TASK_STATE_COMPLETED`, `TASK_STATE_INPUT_REQUIRED`, … */
  taskState: 'a2a.task.state',
  messageId: 'a2a.message.id',
  contextId: 'a2a.context.id',
  protocolVersion: 'a2a.protocol.version',
  tenant: 'a2a.tenant',
} as const;

/** GenAI attributes set on A2A spans. */
export const GEN_AI_ATTR = {
  /** The A2A contextId. */
  conversationId: 'gen_ai.conversation.id',
  /** The served agent (its card's name), on SERVER spans. */
  agentName: 'gen_ai.agent.name',
} as const;

/** Messaging attributes of the queue spans. */
export const MESSAGING_ATTR = {
  system: 'messaging.system',
  destinationName: 'messaging.destination.name',
  messageId: 'messaging.message.id',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
} as const;

/** `messaging.system` of the BullMQ binding (the conventions have no Redis or BullMQ value). */
export const MESSAGING_SYSTEM = 'bullmq';

/** The messaging operations this package traces. */
export type MessagingOperation = 'send' | 'process';

/** `error.type`: the A2A error name (`TaskNotFoundError`), our error code, or `_OTHER`. */
export const ERROR_TYPE = 'error.type';

/** `error.type` values of our own faults that have no error class. */
export const ERROR_TYPES = {
  /** A job whose data is not an A2A envelope (a poison job). */
  invalidEnvelope: 'InvalidJobEnvelope',
  other: '_OTHER',
} as const;

/** The A2A v1.0 methods, which are also the names of their spans. */
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

/** The name of a messaging span: `send a2a.orders`, `process a2a.orders`. */
export function messagingSpanName(operation: MessagingOperation, queue: string): string {
  return `${operation} ${queue}`;
}
