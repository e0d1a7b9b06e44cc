import { isTelemetryError } from '@switchboard/telemetry/trace';
import express, { type Router } from 'express';
import { html } from '../html/html.ts';
import { notice } from '../pages/layout.ts';
import { tracePage } from '../pages/trace-page.ts';
import type { RequestTrace, TraceView } from '../trace-view.ts';
import { base, type ConsoleSide, idOf, route, sendFramed } from './console-context.ts';

/** A request's trace page: its traces as waterfalls, from the trace view. */
export function traceRoutes({ tasks, logger }: ConsoleSide, view: TraceView | undefined): Router {
  const router = express.Router();
  router.get(
    '/requests/:id/trace',
    route(async (req, res) => {
      const taskId = idOf(req);
      const title = `Trace of request ${taskId}`;
      // Only a request of this supervisor's: the id names no file and no other service's task.
      if (tasks && !(await tasks.find(taskId))) {
        sendFramed(
          req,
          res,
          404,
          'No such request',
          html`${notice('problem', `There is no request ${taskId}.`)}`,
        );
        return;
      }
      let traces: readonly RequestTrace[] = [];
      try {
        traces = view ? await view.ofTask(taskId) : [];
      } catch (error) {
        // No span file yet, Jaeger down or answering what we cannot read: the page says which.
        if (!isTelemetryError(error)) throw error;
        logger.warn({ err: error, taskId }, 'console could not read a request’s traces');
        const problem = error.code === 'SPAN_FILE_NOT_FOUND' ? undefined : error.message;
        sendFramed(
          req,
          res,
          problem ? 502 : 200,
          title,
          html`${problem ? notice('problem', `Cannot read the traces: ${problem}`) : ''}${tracePage({ base: base(req), taskId, view, traces })}`,
        );
        return;
      }
      sendFramed(req, res, 200, title, tracePage({ base: base(req), taskId, view, traces }));
    }),
  );
  return router;
}
