import type { Logger } from '@switchboard/agent';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { type HttpBinding, sendProblem } from './problems.ts';

const BODY_TYPES: Record<HttpBinding, string[]> = {
  jsonrpc: ['application/json'],
  rest: ['application/json', 'application/a2a+json'],
};

/** A body limit as `express.json` reads it: bytes, or a size such as `1mb` or `512kb`. */
export const BODY_LIMIT = /^\d+(\.\d+)?\s*(b|kb|mb|gb)$/i;

/** The limit as a caller reads it in an error message. */
export function describeLimit(limit: string | number): string {
  return typeof limit === 'number' ? `${limit} bytes` : limit;
}

/** The `type` of the errors `express.json` raises while reading a body. */
const BODY_ERROR = /^(entity|request|stream|encoding|charset)\./;

const typeOf = (error: unknown): unknown =>
  typeof error === 'object' && error !== null && 'type' in error ? error.type : undefined;

const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number'
    ? error.status
    : undefined;

/**
 * Parses a JSON body under a size limit before the SDK's handlers see the request (the SDK parses
 * only what is still unread, with its own 100 kB limit), and answers body errors in the binding's
 * shape: 413 for an oversized body, JSON-RPC -32700 / REST 400 for invalid JSON, and on REST 415
 * for a body that is not JSON by its `Content-Type` (A2A §11, HTTP+JSON binding).
 */
export function jsonBody({
  binding,
  limit,
  logger,
}: {
  binding: HttpBinding;
  limit: string | number;
  logger: Logger;
}): [RequestHandler, ErrorRequestHandler] {
  const types = BODY_TYPES[binding];
  const json = express.json({ limit, type: types, strict: binding === 'jsonrpc' });
  const parse: RequestHandler = (req, res, next) => {
    if (binding === 'rest' && req.is(types) === false) {
      logger.info({ binding, path: req.originalUrl, type: req.get('content-type') }, 'request body refused');
      sendProblem({
        res,
        binding,
        problem: 'UNSUPPORTED_MEDIA_TYPE',
        message: `The request body is ${req.get('content-type') ?? 'of no stated type'}; send JSON with Content-Type: ${types.join(' or ')}.`,
      });
      return;
    }
    json(req, res, next);
  };
  const onError: ErrorRequestHandler = (error, req, res, next) => {
    const type = typeOf(error);
    if (typeof type !== 'string' || !BODY_ERROR.test(type)) {
      next(error);
      return;
    }
    logger.info({ binding, path: req.originalUrl, type }, 'request body refused');
    if (type === 'entity.too.large') {
      sendProblem({
        res,
        binding,
        problem: 'BODY_TOO_LARGE',
        message: `Request body is larger than ${describeLimit(limit)}; send a smaller message.`,
      });
    } else if (type === 'entity.parse.failed') {
      sendProblem({
        res,
        binding,
        problem: 'INVALID_JSON',
        message: 'The request body is not valid JSON; send a JSON object.',
      });
    } else {
      const status = statusOf(error);
      sendProblem({
        res,
        binding,
        problem: 'UNREADABLE_BODY',
        message: `The request body could not be read (${error instanceof Error ? error.message : 'unknown reason'}).`,
        ...(status && status >= 400 && status < 500 ? { httpStatus: status } : {}),
      });
    }
  };
  return [parse, onError];
}
