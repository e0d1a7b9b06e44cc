import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { type ServerCallContext, STATE_HEADERS_KEY } from '@a2a-js/sdk/server';
import { callVariable, EVENT_POSITION_KEY, TERMINAL_TASK_STATES } from '@switchboard/protocol';

/**
 * The request header (HTTP) or service parameter (queue binding) that resumes a `SubscribeToTask`
 * stream after a position: SSE's own `Last-Event-ID`, which a browser's `EventSource` sends by itself
 * on reconnection. Names are compared in lower case, as both bindings carry them.
 */
export const LAST_EVENT_ID = 'last-event-id';

/** The query parameter the HTTP binding reads when a client cannot set `Last-Event-ID`. */
export const LAST_EVENT_ID_QUERY = 'lastEventId';

/**
 * The `ServerCallContext.state` key of an `AbortSignal` that aborts when the caller has gone away (the
 * HTTP binding sets it from the connection), so a stream waiting for events can stop waiting.
 */
export const CALLER_GONE_KEY = 'switchboard.callerGone';

declare module '@switchboard/protocol' {
  interface CallVariables {
    [CALLER_GONE_KEY]: AbortSignal;
  }
}

const WHOLE_NUMBER = /^\d{1,15}$/;

/**
 * The position a caller resumes after, from its `Last-Event-ID` (the call's headers or service
 * parameters, which `ServerCallContext.state` holds under the SDK's `STATE_HEADERS_KEY`); `undefined`
 * when none (or an empty one, which in SSE means "from the start"). A value that is not a whole number
 * is the caller's mistake: the SDK's `RequestMalformedError`.
 */
export function requestedPosition(call: ServerCallContext): number | undefined {
  const headers = callVariable(call, STATE_HEADERS_KEY);
  const raw = headers?.[LAST_EVENT_ID];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return undefined;
  if (!WHOLE_NUMBER.test(value)) {
    throw new RequestMalformedError(
      `Last-Event-ID must be the position of an event this stream sent (its SSE id, a whole number), got "${value.slice(0, 40)}".`,
    );
  }
  return Number(value);
}

/** The signal that aborts when the caller has gone away, when the binding gives one. */
export function callerGone(call: ServerCallContext): AbortSignal | undefined {
  return callVariable(call, CALLER_GONE_KEY);
}

/** A copy of a stream response whose task or event carries `position` in its metadata. */
export function withPosition(response: StreamResponse, position: number): StreamResponse {
  const payload = response.payload;
  if (!payload) return response;
  const metadata = { ...payload.value.metadata, [EVENT_POSITION_KEY]: position };
  switch (payload.$case) {
    case 'task':
      return { payload: { $case: 'task', value: { ...payload.value, metadata } } };
    case 'statusUpdate':
      return { payload: { $case: 'statusUpdate', value: { ...payload.value, metadata } } };
    case 'artifactUpdate':
      return { payload: { $case: 'artifactUpdate', value: { ...payload.value, metadata } } };
    case 'message':
      return { payload: { $case: 'message', value: { ...payload.value, metadata } } };
  }
}

/**
 * The position a streamed event carries in its metadata, read from the JSON a binding writes: a
 * JSON-RPC response (v1.0 `StreamResponse` or v0.3 event under `result`) or a REST body.
 */
export function positionInJson(body: unknown): number | undefined {
  const root = asObject(body);
  const result = asObject(root?.result) ?? root;
  if (!result) return undefined;
  const event =
    typeof result.kind === 'string'
      ? result
      : (asObject(result.task) ??
        asObject(result.statusUpdate) ??
        asObject(result.artifactUpdate) ??
        asObject(result.message));
  const position = asObject(event?.metadata)?.[EVENT_POSITION_KEY];
  return typeof position === 'number' && Number.isSafeInteger(position) && position >= 0
    ? position
    : undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * Whether a stream of a task's events ends with this one: a status update into a terminal state or
 * `INPUT_REQUIRED`, as the SDK's `ExecutionEventQueue` ends.
 */
export function endsStream(response: StreamResponse): boolean {
  if (response.payload?.$case !== 'statusUpdate') return false;
  const state = response.payload.value.status?.state;
  return (
    state !== undefined && (TERMINAL_TASK_STATES.has(state) || state === TaskState.TASK_STATE_INPUT_REQUIRED)
  );
}
