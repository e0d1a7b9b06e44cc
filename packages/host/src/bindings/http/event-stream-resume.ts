import { defaultServerCallContextBuilder, type ServerCallContextBuilder } from '@a2a-js/sdk/server';
import { setCallVariable } from '@switchboard/protocol';
import type { RequestHandler, Response } from 'express';
import {
  CALLER_GONE_KEY,
  LAST_EVENT_ID,
  LAST_EVENT_ID_QUERY,
  positionInJson,
} from '../../tasks/event-position.ts';

/** What {@link eventStreamResume} gives the HTTP app: a middleware and the SDK's context builder. */
export interface EventStreamResume {
  /** Goes before the SDK's JSON-RPC and REST handlers. */
  middleware: RequestHandler;
  /** The handlers' `contextBuilder`: the SDK's default, plus the caller-gone signal. */
  contextBuilder: ServerCallContextBuilder;
}

/**
 * What lets an SSE stream resume where it was cut, around the SDK's express handlers:
 * - each SSE event whose task or event carries a position (`EVENT_POSITION_KEY`) is preceded by an
 *   `id: <position>` line (the SDK writes `data:` lines only);
 * - the `lastEventId` query parameter stands for the `Last-Event-ID` header when that is absent (for
 *   clients that cannot set it); the SDK's default context builder puts the headers in
 *   `ServerCallContext.state`, where `requestedPosition` reads them;
 * - the call's context carries an `AbortSignal` (`CALLER_GONE_KEY`) that aborts when the connection
 *   closes, so a subscription waiting for events lets its Redis connection go at once.
 */
export function eventStreamResume(): EventStreamResume {
  const gone = new WeakMap<object, AbortSignal>();
  const middleware: RequestHandler = (req, res, next) => {
    const query = req.query[LAST_EVENT_ID_QUERY];
    if (req.headers[LAST_EVENT_ID] === undefined && typeof query === 'string') {
      req.headers[LAST_EVENT_ID] = query;
    }
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    gone.set(req.headers, controller.signal);
    writeEventIds(res);
    next();
  };
  const contextBuilder: ServerCallContextBuilder = (options) => {
    const context = defaultServerCallContextBuilder(options);
    const signal = gone.get(options.headers);
    if (signal) setCallVariable(context, CALLER_GONE_KEY, signal);
    return context;
  };
  return { middleware, contextBuilder };
}

/** Prefixes each positioned SSE event the SDK writes with its `id:` line. */
function writeEventIds(res: Response): void {
  const write = res.write;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    let out = chunk;
    if (typeof chunk === 'string' && chunk.startsWith('data: ') && isEventStream(res)) {
      const position = positionOf(chunk.slice('data: '.length));
      if (position !== undefined) out = `id: ${position}\n${chunk}`;
    }
    return (write as (...args: unknown[]) => boolean).call(res, out, ...rest);
  }) as Response['write'];
}

function isEventStream(res: Response): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

function positionOf(json: string): number | undefined {
  try {
    return positionInJson(JSON.parse(json));
  } catch {
    return undefined;
  }
}
