import express, { type Router } from 'express';
import type { EvalsView } from '../evals-view.ts';
import { evalsPage } from '../pages/evals-page.ts';
import { route, sendFramed } from './console-context.ts';

/** The evals page: the last eval report against its baseline, and the reports over time. */
export function evalsRoutes(view: EvalsView | undefined): Router {
  const router = express.Router();
  router.get(
    '/evals',
    route(async (req, res) => {
      sendFramed(req, res, 200, 'Evals', evalsPage({ history: view ? await view.read() : undefined }));
    }),
  );
  return router;
}
