import { isTelemetryError } from '@switchboard/telemetry/trace';
import express, { type Request, type Response, type Router } from 'express';
import { html } from '../html/html.ts';
import { notice } from '../pages/layout.ts';
import { tracePage } from '../pages/trace-page.ts';
import type { RequestTrace, TraceView } from '../trace-view.ts';
import { base, type ConsoleSide, idOf, route, sendFramed } from './console-context.ts';

/**
 * The trace pages: a request's traces (`/requests/<task>/trace`) and one trace by its id
 * (`/traces/<id>`, which the shadow page links to), as waterfalls, from the trace view.
 */
export function traceRoutes({ tasks, logger }: ConsoleSide, view: TraceView | undefined): Router {
  const router = express.Router();
  /** Reads the traces and sends their page; no span file yet, Jaeger down or unreadable: the page says which. */
  const sendTraces = async (
    req: Request,
    res: Response,
    title: string,
    taskId: string | undefined,
    read: () => Promise<readonly RequestTrace[]>,
  ) => {
    let traces: readonly RequestTrace[] = [];
    try {
      traces = await read();
    } catch (error) {
      if (!isTelemetryError(error)) throw error;
      logger.warn({ err: error, taskId }, 'console could not read traces');
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
  };
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
      await sendTraces(req, res, title, taskId, async () => (view ? view.ofTask(taskId) : []));
    }),
  );
  router.get(
    '/traces/:id',
    route(async (req, res) => {
      const traceId = idOf(req);
      if (!/^[0-9a-f]{32}$/i.test(traceId)) {
        sendFramed(
          req,
          res,
          404,
          'No such trace',
          html`${notice('problem', `"${traceId}" is not a trace id (32 hex digits).`)}`,
        );
        return;
      }
      await sendTraces(req, res, `Trace ${traceId.toLowerCase()}`, undefined, async () =>
        view ? [await view.trace(traceId)] : [],
      );
    }),
  );
  return router;
}
