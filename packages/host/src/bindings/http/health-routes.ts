import type { Logger } from '@switchboard/agent';
import { type RequestHandler, Router } from 'express';

/** A readiness check: true when the service can take requests (its Redis, its model, ...). */
export type ReadinessCheck = () => Promise<boolean> | boolean;

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/**
 * `GET /healthz` (the process answers: 200 `{status:'ok'}`) and `GET /readyz` (200 when the
 * readiness check passes, else 503 with a reason). Both are public, for load balancers and probes.
 */
export function healthRoutes({ readiness, logger }: { readiness?: ReadinessCheck; logger: Logger }): Router {
  const router = Router();
  router.get('/healthz', noStore, (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', noStore, async (_req, res) => {
    let ready: boolean;
    try {
      ready = readiness ? (await readiness()) === true : true;
    } catch (error) {
      logger.warn({ err: error }, 'readiness check threw');
      res
        .status(503)
        .json({ status: 'unavailable', reason: 'The readiness check failed; see the service logs.' });
      return;
    }
    if (ready) res.json({ status: 'ready' });
    else res.status(503).json({ status: 'unavailable', reason: 'The readiness check reports not ready.' });
  });
  return router;
}
