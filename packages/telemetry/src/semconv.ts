/**
 * Span and attribute names Switchboard uses beyond the agent runtime's `GEN_AI` table
 * (`@switchboard/agent`): A2A, messaging over BullMQ, and resource attributes. One table, after the
 * OpenTelemetry GenAI (A2A) and messaging semantic conventions (status "Development"), so that call
 * sites never spell a name by hand.
 *
 * This module imports nothing: packages that emit spans through `@opentelemetry/api` alone can use it
 * via `@switchboard/telemetry/semconv` without pulling in the OpenTelemetry SDK.
 */

/**
 * A2A attributes. A2A client (CLIENT) and server (SERVER) spans are both named after the method,
 * e.g. `SendMessage` (see {@link a2aSpanName}).
 */
export const A2A = {
  /** Required: `SendMessage`, `SendStreamingMessage`, `GetTask`, `CancelTask`, ... */
  method: 'a2a.method.name',
  taskId: 'a2a.task.id',
  /** `TASK_STATE_SUBMITTED`, `TASK_STATE_WORKING`, `TASK_STATE_COMPLETED`, ... */
  taskState: 'a2a.task.state',
  messageId: 'a2a.message.id',
  /** The protocol version the request was served in: `1.0` or `0.3`. */
  protocolVersion: 'a2a.protocol.version',
  /**
   * The A2A contextId. Not in the convention, which carries it in `gen_ai.conversation.id`
   * ({@link A2A.conversationId}); set both so either search finds the request.
   */
  contextId: 'a2a.context.id',
  /** The convention's home of the A2A contextId. */
  conversationId: 'gen_ai.conversation.id',
  tenant: 'a2a.tenant',
  referenceTaskIds: 'a2a.message.reference_task_ids',
} as const;

/** Messaging attributes for A2A over BullMQ queues. */
export const MESSAGING = {
  /** Required; see {@link MESSAGING_SYSTEM}. */
  system: 'messaging.system',
  /** The queue name. */
  destinationName: 'messaging.destination.name',
  /** The BullMQ job id. */
  messageId: 'messaging.message.id',
  /** `send` or `process`; see {@link MESSAGING_OPERATION}. */
  operationType: 'messaging.operation.type',
  /** Required: the system's own name of the operation (`send`, `process`). */
  operationName: 'messaging.operation.name',
  conversationId: 'messaging.message.conversation_id',
  clientId: 'messaging.client.id',
} as const;

/** The value of `messaging.system`: the convention has no Redis or BullMQ value, so ours is `bullmq`. */
export const MESSAGING_SYSTEM = 'bullmq';

/** Values of `messaging.operation.type`: `send` (PRODUCER span) and `process` (CONSUMER span). */
export const MESSAGING_OPERATION = { send: 'send', process: 'process' } as const;

/** A value of {@link MESSAGING_OPERATION}. */
export type MessagingOperation = (typeof MESSAGING_OPERATION)[keyof typeof MESSAGING_OPERATION];

/** Resource attributes every Switchboard process reports. */
export const RESOURCE = {
  serviceName: 'service.name',
  serviceVersion: 'service.version',
  serviceInstanceId: 'service.instance.id',
  deploymentEnvironmentName: 'deployment.environment.name',
} as const;

/** Attributes shared by every kind of span. */
export const COMMON = {
  /** What went wrong, as a code (`TOOL_FAILED`, a JSON-RPC error code, ...): never a raw message. */
  errorType: 'error.type',
} as const;

/**
 * The name of a messaging span: `send <queue>` (PRODUCER) or `process <queue>` (CONSUMER).
 *
 * @example
 * messagingSpanName({ operation: 'send', queue: 'a2a.orders' }); // 'send a2a.orders'
 */
export function messagingSpanName({
  operation,
  queue,
}: {
  operation: MessagingOperation;
  queue: string;
}): string {
  return `${operation} ${queue}`;
}

/** The name of an A2A client or server span: the method itself, e.g. `SendMessage`. */
export function a2aSpanName({ method }: { method: string }): string {
  return method;
}
