import express, { type Router } from 'express';
import { shadowPage } from '../pages/shadow-page.ts';
import type { ShadowView } from '../shadow-view.ts';
import type { TraceView } from '../trace-view.ts';
import { base, route, sendFramed } from './console-context.ts';

/** The shadow page: the shadow reports of the team's agents. */
export function shadowRoutes(view: ShadowView | undefined, trace: TraceView | undefined): Router {
  const router = express.Router();
  router.get(
    '/shadow',
    route(async (req, res) => {
      const rows = view ? await view.read() : undefined;
      sendFramed(req, res, 200, 'Shadow', shadowPage({ rows, traces: trace ? base(req) : undefined }));
    }),
  );
  return router;
}
