import { CONVERSATION_KEY } from '@switchboard/protocol';
import express, { type Router } from 'express';
import { html } from '../html/html.ts';
import { streamSnapshots } from '../live-events.ts';
import { notice } from '../pages/layout.ts';
import { matches, requestDetail, requestsTable } from '../pages/requests-page.ts';
import { hasEnded, taskView } from '../pages/task-snapshot.ts';
import { base, type ConsoleSide, idOf, route, sendFramed } from './console-context.ts';
import { readRequestQuery } from './request-query.ts';

/** How many of the most recent tasks (before `to`) one page of the list looks through for its filters. */
const WINDOW = 500;
/** How many rows it shows. */
const SHOWN = 100;

/** The requests pages: every user's recent tasks, filtered, and one request followed live. */
export function requestsRoutes({ tasks, runs }: ConsoleSide): Router {
  const router = express.Router();
  const unavailable = html`${notice('problem', 'This service keeps no directory of its tasks (it runs without Redis), so there is no list of requests.')}`;

  router.get(
    '/requests',
    route(async (req, res) => {
      if (!tasks) {
        sendFramed(req, res, 200, 'Requests', unavailable);
        return;
      }
      const { filters, after, before, problems } = readRequestQuery(req.query);
      if (problems.length > 0) {
        const told = problems.map((problem) => notice('problem', problem));
        sendFramed(
          req,
          res,
          400,
          'Requests',
          html`${told}${requestsTable({ base: base(req), entries: [], filters })}`,
        );
        return;
      }
      // Newest first: the page ends at the first task older than `from`.
      const examined = await tasks.recent({ limit: WINDOW, ...(before === undefined ? {} : { before }) });
      const inRange = examined.filter((entry) => after === undefined || (entry.changedAt ?? 0) >= after);
      const matching = inRange.filter((entry) => matches(entry, filters));
      const shown = matching.slice(0, SHOWN);
      // The next page starts where this one stopped looking: after the last row shown when more
      // matched, else after the last task examined, while the window was full and still in range.
      const last =
        matching.length > SHOWN ? shown.at(-1) : examined.length === WINDOW ? inRange.at(-1) : undefined;
      const older =
        inRange.length === examined.length || matching.length > SHOWN ? last?.changedAt : undefined;
      sendFramed(
        req,
        res,
        200,
        'Requests',
        requestsTable({ base: base(req), entries: shown, filters, older }),
      );
    }),
  );

  router.get(
    '/requests/:id',
    route(async (req, res) => {
      const entry = await tasks?.find(idOf(req));
      if (!entry) {
        sendFramed(
          req,
          res,
          404,
          'No such request',
          tasks ? html`${notice('problem', `There is no request ${idOf(req)}.`)}` : unavailable,
        );
        return;
      }
      const conversation = entry.task.metadata?.[CONVERSATION_KEY];
      const state = runs && typeof conversation === 'string' ? await runs.load(conversation) : undefined;
      const detail = requestDetail({
        base: base(req),
        entry,
        messages: runs ? (state?.messages ?? []) : undefined,
      });
      sendFramed(req, res, 200, `Request ${entry.task.id}`, detail);
    }),
  );

  router.get(
    '/requests/:id/events',
    route(async (req, res) => {
      await streamSnapshots(req, res, {
        read: async () => {
          const entry = await tasks?.find(idOf(req));
          if (!entry) return undefined;
          const task = taskView(entry.task);
          return { snapshot: { task }, done: hasEnded(task.state) };
        },
      });
    }),
  );
  return router;
}
