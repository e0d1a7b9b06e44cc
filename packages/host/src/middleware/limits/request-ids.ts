import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { controlCharacterIn } from '@switchboard/protocol';
import { HostError } from '../../errors.ts';
import { decorateHandler, type StreamMethod, type UnaryMethod } from '../decorate-handler.ts';

/**
 * Bounds on the ids and names a request carries (every method, every binding): they are copied into
 * the task, each of its events, its owner record, Redis key names and span attributes, so each is
 * bounded apart from the message's content.
 */
export interface IdLimits {
  /**
   * Bytes (UTF-8) of one id: `messageId`, `contextId`, `taskId`, each of `referenceTaskIds`, a task
   * `id`, `tenant`, a part's media type, an accepted output mode (default 128; a UUID is 36). A page
   * token may be 4 times it.
   */
  maxIdBytes?: number;
  /** Ids in one list: `referenceTaskIds`, `acceptedOutputModes` (default 16). */
  maxListedIds?: number;
  /** Extension URIs in one message, and in the `A2A-Extensions` the call names (default 8). */
  maxExtensions?: number;
  /** Bytes of one extension URI (default 256). */
  maxExtensionUriBytes?: number;
}

/** The defaults of {@link IdLimits}. */
export const DEFAULT_ID_LIMITS: Readonly<Required<IdLimits>> = {
  maxIdBytes: 128,
  maxListedIds: 16,
  maxExtensions: 8,
  maxExtensionUriBytes: 256,
};

/** What names an id refused by {@link boundRequestIds} (`ErrorInfo.metadata.limit`). */
export type IdLimitName = keyof IdLimits | 'idText';

/** {@link IdLimits} merged over the defaults; throws `INVALID_OPTIONS` naming each bad one. */
export function resolveIdLimits(given: IdLimits = {}): Required<IdLimits> {
  const merged = { ...DEFAULT_ID_LIMITS, ...given };
  const problems = Object.entries(merged)
    .filter(([, value]) => !(Number.isInteger(value) && value >= 1))
    .map(([name, value]) => `ids.${name} must be a whole number of at least 1 (got ${value})`);
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', { message: `limits are not valid: ${problems.join('; ')}.` });
  }
  return merged;
}

function refuse(field: string, limit: IdLimitName, message: string, max?: number, actual?: number) {
  return new RequestMalformedError({
    message,
    metadata: {
      field,
      limit,
      ...(max === undefined ? {} : { max: String(max) }),
      ...(actual === undefined ? {} : { actual: String(actual) }),
    },
  });
}

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/** Checks one id or name: a string, within `max` bytes, without control characters. */
function checkText(field: string, value: unknown, max: number, limit: IdLimitName): void {
  if (value === undefined || value === '') return;
  if (typeof value !== 'string') {
    throw refuse(field, 'idText', `${field} must be a string (got ${describe(value)}); send the id as text.`);
  }
  const bytes = Buffer.byteLength(value);
  if (bytes > max) {
    throw refuse(
      field,
      limit,
      `${field} is ${bytes} bytes; it may be at most ${max} bytes${limit === 'maxIdBytes' ? ' (a UUID is 36)' : ''}. Send a shorter one.`,
      max,
      bytes,
    );
  }
  const code = controlCharacterIn(value);
  if (code !== undefined) {
    throw refuse(field, 'idText', `${field} contains a control character (${code}); send printable text.`);
  }
}

/** Checks a list of ids or names: a list of at most `maxItems`, each as {@link checkText}. */
function checkList(
  field: string,
  value: unknown,
  {
    maxItems,
    itemLimit,
    maxBytes,
    bytesLimit,
  }: { maxItems: number; itemLimit: IdLimitName; maxBytes: number; bytesLimit: IdLimitName },
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    throw refuse(field, 'idText', `${field} must be a list of strings (got ${describe(value)}).`);
  }
  if (value.length > maxItems) {
    throw refuse(
      field,
      itemLimit,
      `${field} has ${value.length} entries; it may have at most ${maxItems}.`,
      maxItems,
      value.length,
    );
  }
  value.forEach((item, n) => {
    checkText(`${field}[${n}]`, item, maxBytes, bytesLimit);
  });
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/** The name a field also goes by in ProtoJSON (`context_id`), which the SDK reads as well. */
const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * Checks the ids of a request's params: `message` when the call sends one. `wire` for params as they
 * arrived (JSON), before the SDK read them: the ProtoJSON names (`context_id`) are checked too.
 */
export function checkParamIds(
  params: unknown,
  {
    message: sendsMessage,
    limits,
    wire = false,
  }: { message: boolean; limits: Required<IdLimits>; wire?: boolean },
): void {
  const fields = (container: Record<string, unknown>, name: string, at: string) => {
    const names = wire && snake(name) !== name ? [name, snake(name)] : [name];
    return names.map((key) => [`${at}${key}`, container[key]] as const);
  };
  const id = (container: Record<string, unknown>, name: string, at = '') => {
    for (const [field, value] of fields(container, name, at)) {
      checkText(field, value, limits.maxIdBytes, 'maxIdBytes');
    }
  };
  const list = (container: Record<string, unknown>, name: string, at: string, extensions = false) => {
    for (const [field, value] of fields(container, name, at)) {
      checkList(field, value, {
        maxItems: extensions ? limits.maxExtensions : limits.maxListedIds,
        itemLimit: extensions ? 'maxExtensions' : 'maxListedIds',
        maxBytes: extensions ? limits.maxExtensionUriBytes : limits.maxIdBytes,
        bytesLimit: extensions ? 'maxExtensionUriBytes' : 'maxIdBytes',
      });
    }
  };

  const given = record(params) ?? {};
  for (const name of ['tenant', 'id', 'taskId', 'contextId']) id(given, name);
  for (const [field, value] of fields(given, 'pageToken', '')) {
    checkText(field, value, limits.maxIdBytes * 4, 'maxIdBytes');
  }
  if (!sendsMessage) return;
  const message = record(given.message);
  if (message) {
    for (const name of ['messageId', 'contextId', 'taskId']) id(message, name, 'message.');
    list(message, 'referenceTaskIds', 'message.');
    list(message, 'extensions', 'message.', true);
    if (Array.isArray(message.parts)) {
      message.parts.forEach((part, n) => {
        id(record(part) ?? {}, 'mediaType', `message.parts[${n}].`);
      });
    }
  }
  list(record(given.configuration) ?? {}, 'acceptedOutputModes', 'configuration.');
}

/**
 * Refuses a call whose ids or extension URIs are not strings, too long, too many, or hold control
 * characters, naming the field and the bound: an A2A invalid-params error (`RequestMalformedError`,
 * JSON-RPC -32602, HTTP 400) whose `ErrorInfo` metadata has `{ field, limit, max, actual }`.
 */
export function checkRequestIds(
  method: UnaryMethod | StreamMethod,
  params: unknown,
  call: ServerCallContext,
  limits: Required<IdLimits>,
): void {
  checkList('A2A-Extensions', call.requestedExtensions, {
    maxItems: limits.maxExtensions,
    itemLimit: 'maxExtensions',
    maxBytes: limits.maxExtensionUriBytes,
    bytesLimit: 'maxExtensionUriBytes',
  });
  checkParamIds(params, { message: method === 'sendMessage' || method === 'sendMessageStream', limits });
}

/**
 * Wraps a request handler so that every call's ids are checked ({@link checkRequestIds}) before
 * anything else runs or is stored: outside the queue's redelivery check, whose key holds the
 * message id, and the rate and size limits.
 *
 * @example
 * const bounded = boundRequestIds({ handler, limits: { maxIdBytes: 64 } });
 */
export function boundRequestIds({
  handler,
  limits,
}: {
  handler: A2ARequestHandler;
  limits?: IdLimits | undefined;
}): A2ARequestHandler {
  const resolved = resolveIdLimits(limits);
  return decorateHandler(handler, {
    unary: async (method, params, call, run) => {
      checkRequestIds(method, params, call, resolved);
      return run();
    },
    stream: async function* (method, params, call, open) {
      checkRequestIds(method, params, call, resolved);
      yield* open();
    },
  });
}
