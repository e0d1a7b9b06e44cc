import { type Message, type StreamResponse, type Task, taskStateToJSON } from '@a2a-js/sdk';
import { A2AError } from '@a2a-js/sdk/errors';
import { type Attributes, type Span, SpanStatusCode } from '@opentelemetry/api';
import { isQueueBindingError } from '@switchboard/a2a-bullmq';
import { A2A, COMMON, ERROR_TYPE_OTHER, GEN_AI } from '@switchboard/semconv';
import { A2aError } from '../errors.ts';

/** Attributes without the empty ones (proto-style requests use `''` or `[]` for "not set"). */
function present(attributes: Record<string, string | readonly string[] | undefined>): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string' && value !== '') kept[key] = value;
    else if (typeof value === 'object' && value.length > 0) kept[key] = [...value];
  }
  return kept;
}

/** What a request message says about the call: message, task and conversation ids, referenced tasks. */
export function messageAttributes(message: Message | undefined): Attributes {
  return present({
    [A2A.messageId]: message?.messageId,
    [A2A.taskId]: message?.taskId,
    [GEN_AI.conversationId]: message?.contextId,
    [A2A.referenceTaskIds]: message?.referenceTaskIds,
  });
}

/** The task a call is about, and the tenant it runs under. */
export function requestAttributes({ taskId, tenant }: { taskId?: string; tenant?: string }): Attributes {
  return present({ [A2A.taskId]: taskId, [A2A.tenant]: tenant });
}

function taskAttributes(task: Task): Attributes {
  return present({
    [A2A.taskId]: task.id,
    [A2A.taskState]: task.status ? taskStateToJSON(task.status.state) : undefined,
    [GEN_AI.conversationId]: task.contextId,
  });
}

/** What a result tells: the task, its state and the conversation (a reply message: its ids). */
export function resultAttributes(result: Task | Message): Attributes {
  if ('status' in result) return taskAttributes(result);
  return present({
    [A2A.taskId]: result.taskId,
    [GEN_AI.conversationId]: result.contextId,
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
        [A2A.taskId]: payload.value.taskId,
        [A2A.taskState]: payload.value.status ? taskStateToJSON(payload.value.status.state) : undefined,
        [GEN_AI.conversationId]: payload.value.contextId,
      });
    case 'artifactUpdate':
      return present({
        [A2A.taskId]: payload.value.taskId,
        [GEN_AI.conversationId]: payload.value.contextId,
      });
    default:
      return {};
  }
}

/**
 * A low-cardinality name for an error: the A2A error's class name (`TaskNotFoundError`), our
 * `A2aError` code (`REDIS_UNAVAILABLE`) or the queue binding's (`TIMEOUT`), another error's own
 * name, or `_OTHER`.
 */
export function errorType(error: unknown): string {
  if (error instanceof A2AError) return error.name;
  if (error instanceof A2aError) return error.code;
  if (isQueueBindingError(error)) return error.code;
  if (error instanceof Error && error.name && error.name !== 'Error') return error.name;
  return ERROR_TYPE_OTHER;
}

/**
 * Marks a span failed with `error.type` and a message we wrote: never the error's own text or
 * stack, which may carry content (they go to the logger).
 */
export function recordFailure(span: Span, type: string, message: string): void {
  span.setAttribute(COMMON.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Marks a span of an A2A call failed: `<method> failed: <error type>.` */
export function recordCallFailure(span: Span, method: string, error: unknown): void {
  const type = errorType(error);
  recordFailure(span, type, `${method} failed: ${type}.`);
}
