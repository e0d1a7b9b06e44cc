import { A2AError, restStatusFor, toJsonRpcError, toRestErrorBody } from '@a2a-js/sdk/errors';
import type { RequestHandler } from 'express';
import { checkRestBodyIds, checkWireIds } from '../../middleware/limits/wire-ids.ts';
import type { HttpBinding } from './problems.ts';

const A2A_JSON = 'application/a2a+json';

/**
 * Refuses, after the body is read and before the SDK's handler, a request whose ids are not text as
 * sent (see `checkWireIds`): the A2A invalid-params error, as the SDK's handlers answer it (JSON-RPC
 * under the request's id, REST a `google.rpc.Status` body with 400).
 */
export function wireIdCheck(binding: HttpBinding): RequestHandler {
  return (req, res, next) => {
    const body: unknown = req.body;
    try {
      if (binding === 'jsonrpc') checkWireIds(body);
      else checkRestBodyIds(body, { message: /message:(send|stream)$/.test(req.path) });
    } catch (error) {
      if (!(error instanceof A2AError)) throw error;
      if (binding === 'jsonrpc') {
        const id = (body as { id?: unknown } | null)?.id;
        res.json({
          jsonrpc: '2.0',
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
          error: toJsonRpcError(error),
        });
      } else {
        const status = restStatusFor(error);
        res.status(status).type(A2A_JSON).json(toRestErrorBody(error, status));
      }
      return;
    }
    next();
  };
}
