import express, { type Router } from 'express';
import { tracePage } from '../pages/trace-page.ts';
import type { RequestTrace, TraceView } from '../trace-view.ts';
import { base, type ConsoleSide, idOf, route, sendFramed } from './console-context.ts';

/** A request's trace page: its traces as waterfalls, from the trace view. */
export function traceRoutes({ tasks }: ConsoleSide, view: TraceView | undefined): Router {
  const router = express.Router();
  router.get(
    '/requests/:id/trace',
    route(async (req, res) => {
      const taskId = idOf(req);
      // Only a request of this supervisor's: the id names no file and no other service's task.
      if (tasks && !(await tasks.find(taskId))) {
        sendFramed(
          req,
          res,
          404,
          'No such request',
          tracePage({ base: base(req), taskId, view, traces: [] }),
        );
        return;
      }
      const traces: readonly RequestTrace[] = view ? await view.ofTask(taskId) : [];
      sendFramed(
        req,
        res,
        200,
        `Trace of request ${taskId}`,
        tracePage({ base: base(req), taskId, view, traces }),
      );
    }),
  );
  return router;
}
