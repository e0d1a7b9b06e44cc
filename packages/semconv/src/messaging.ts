/**
 * `messaging.*` attributes of the spans of A2A over BullMQ, from the OpenTelemetry messaging
 * semantic conventions (status "Development"). Every name here is theirs.
 */
export const MESSAGING = {
  /** Required; {@link MESSAGING_SYSTEM}. */
  system: 'messaging.system',
  /** The queue's name. */
  destinationName: 'messaging.destination.name',
  /** The BullMQ job id. */
  messageId: 'messaging.message.id',
  /** {@link MESSAGING_OPERATION}: `send` (PRODUCER) or `process` (CONSUMER). */
  operationType: 'messaging.operation.type',
  /** Required: the system's own name of the operation, the same words here. */
  operationName: 'messaging.operation.name',
} as const;

/** Ours: the value of `messaging.system`, since the conventions list no Redis or BullMQ value. */
export const MESSAGING_SYSTEM = 'bullmq';

/** The conventions' values of `messaging.operation.type` that Switchboard emits. */
export const MESSAGING_OPERATION = { send: 'send', process: 'process' } as const;

/** A value of {@link MESSAGING_OPERATION}. */
export type MessagingOperation = (typeof MESSAGING_OPERATION)[keyof typeof MESSAGING_OPERATION];

/**
 * The name of a messaging span, after the conventions: `{operation} {queue}`.
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
