import { type Message, type StreamResponse, type Task, taskStateToJSON } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/errors';
import { type Attributes, type Span, SpanStatusCode } from '@opentelemetry/api';
import { A2aError } from '../errors.ts';
import {
  A2A_ATTR,
  ERROR_TYPE,
  ERROR_TYPES,
  GEN_AI_ATTR,
  MESSAGING_ATTR,
  MESSAGING_SYSTEM,
  type MessagingOperation,
} from './a2a-semconv.ts';

/** Attributes without the empty ones (proto-style requests use `''` for "not set"). */
function present(attributes: Record<string, string | undefined>): Attributes {
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => Boolean(value)));
}

/** What a request message says about the call: message, task and conversation ids. */
export function messageAttributes(message: Message | undefined): Attributes {
  return present({
    [A2A_ATTR.messageId]: message?.messageId,
    [A2A_ATTR.taskId]: message?.taskId,
    [A2A_ATTR.contextId]: message?.contextId,
    [GEN_AI_ATTR.conversationId]: message?.contextId,
  });
}

/** The task a call is about, and the tenant it runs under. */
export function requestAttributes({ taskId, tenant }: { taskId?: string; tenant?: string }): Attributes {
  return present({ [A2A_ATTR.taskId]: taskId, [A2A_ATTR.tenant]: tenant });
}

function taskAttributes(task: Task): Attributes {
  return present({
    [A2A_ATTR.taskId]: task.id,
    [A2A_ATTR.taskState]: task.status ? taskStateToJSON(task.status.state) : undefined,
    [A2A_ATTR.contextId]: task.contextId,
    [GEN_AI_ATTR.conversationId]: task.contextId,
  });
}

/** What a result tells: the task, its state and the conversation (a reply message: its ids). */
export function resultAttributes(result: Task | Message): Attributes {
  if ('status' in result) return taskAttributes(result);
  return present({
    [A2A_ATTR.taskId]: result.taskId,
    [A2A_ATTR.contextId]: result.contextId,
    [GEN_AI_ATTR.conversationId]: result.contextId,
  });
}

/** What one streamed event tells; the last one's state is the task's final state. */
export function streamEventAttributes(event: StreamResponse): Attributes {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
    case 'message':
      return resultAttributes(payload.value);
    case 'statusUpdate':
      return present({
        [A2A_ATTR.taskId]: payload.value.taskId,
        [A2A_ATTR.taskState]: payload.value.status ? taskStateToJSON(payload.value.status.state) : undefined,
        [A2A_ATTR.contextId]: payload.value.contextId,
        [GEN_AI_ATTR.conversationId]: payload.value.contextId,
      });
    case 'artifactUpdate':
      return present({
        [A2A_ATTR.taskId]: payload.value.taskId,
        [A2A_ATTR.contextId]: payload.value.contextId,
        [GEN_AI_ATTR.conversationId]: payload.value.contextId,
      });
    default:
      return {};
  }
}

/** The attributes of a `send` or `process` span of the BullMQ binding. */
export function messagingAttributes(
  operation: MessagingOperation,
  queue: string,
  messageId: string | undefined,
): Attributes {
  return present({
    [MESSAGING_ATTR.system]: MESSAGING_SYSTEM,
    [MESSAGING_ATTR.destinationName]: queue,
    [MESSAGING_ATTR.messageId]: messageId,
    [MESSAGING_ATTR.operationType]: operation,
    [MESSAGING_ATTR.operationName]: operation,
  });
}

/**
 * A low-cardinality name for an error: the A2A error's class name (`TaskNotFoundError`), our
 * `A2aError` code (`TIMEOUT`), another error's own name, or `_OTHER`.
 */
export function errorType(error: unknown): string {
  if (error instanceof A2AError) return error.name;
  if (error instanceof A2aError) return error.code;
  if (error instanceof Error && error.name && error.name !== 'Error') return error.name;
  return ERROR_TYPES.other;
}

/**
 * Marks a span failed with `error.type` and a message we wrote: never the error's own text or
 * stack, which may carry content (they go to the logger).
 */
export function recordFailure(span: Span, type: string, message: string): void {
  span.setAttribute(ERROR_TYPE, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Marks a span of an A2A call failed: `<method> failed: <error type>.` */
export function recordCallFailure(span: Span, method: string, error: unknown): void {
  const type = errorType(error);
  recordFailure(span, type, `${method} failed: ${type}.`);
}
