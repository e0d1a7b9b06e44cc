import type { TaskEventFeed } from '@switchboard/host/approvals';
import { CONVERSATION_KEY } from '@switchboard/protocol';
import express, { type Request, type Router } from 'express';
import type { AgentRecords, AgentRecordsOf } from '../agent-records.ts';
import { html } from '../html/html.ts';
import { streamSnapshots } from '../live-events.ts';
import { notice } from '../pages/layout.ts';
import { matches, requestDetail, requestsTable } from '../pages/requests-page.ts';
import { hasEnded, taskView } from '../pages/task-snapshot.ts';
import { followProgress, progressSoFar } from '../progress-feed.ts';
import { base, type ConsoleSide, idOf, route, sendFramed } from './console-context.ts';
import { readRequestQuery } from './request-query.ts';

/** How many of the most recent tasks (before `to`) one page of the list looks through for its filters. */
const WINDOW = 500;
/** How many rows it shows. */
const SHOWN = 100;

/** The records a requests page reads, or why it has none. */
type Found = { records: AgentRecordsOf } | { problem: string } | { unavailable: true };

/**
 * Where a request's live progress goes on: after the browser's `Last-Event-ID` when it reconnects,
 * else the page's `after` (the last line it was drawn with), else the newest event now.
 */
async function progressAfter(req: Request, feed: TaskEventFeed): Promise<number | 'unreadable'> {
  const given =
    req.get('last-event-id') ?? (typeof req.query.after === 'string' ? req.query.after : undefined);
  if (given === undefined) return (await progressSoFar(feed, idOf(req))).last;
  return /^\d{1,15}$/.test(given) ? Number(given) : 'unreadable';
}

/** The `agent` a page asks for: empty for the host's own. */
const agentAsked = (req: Request) =>
  typeof req.query.agent === 'string' ? req.query.agent.trim().slice(0, 100) : '';

/**
 * The requests pages: every user's recent tasks of this agent or (with `agents`) of another of the
 * team's, filtered, and one request followed live.
 */
export function requestsRoutes(
  { tasks, runs, events, card, logger }: ConsoleSide,
  agents?: AgentRecords,
): Router {
  const router = express.Router();
  const unavailable = html`${notice('problem', 'This service keeps no directory of its tasks (it runs without Redis), so there is no list of requests.')}`;
  const own: AgentRecordsOf | undefined = tasks ? { tasks, runs, events } : undefined;

  /** The records of the agent a page asks for (`agent`, empty for this host's), or why there are none. */
  async function recordsFor(req: Request): Promise<Found> {
    const agent = agentAsked(req);
    if (agent === '' || agent === card.name) return own ? { records: own } : { unavailable: true };
    const records = await agents?.of(agent);
    if (records) return { records };
    const names = (await agents?.names()) ?? [];
    return {
      problem:
        names.length > 0
          ? `There is no agent “${agent}” in the team: pick one of ${[card.name, ...names].join(', ')}.`
          : `There is no agent “${agent}” in the team: this console lists ${card.name}’s requests only.`,
    };
  }
  const agentNames = async () => [card.name, ...((await agents?.names()) ?? [])];

  router.get(
    '/requests',
    route(async (req, res) => {
      const asked = agentAsked(req);
      const agent = asked === card.name ? '' : asked;
      const { filters, after, before, problems } = readRequestQuery(req.query);
      const found = await recordsFor(req);
      if ('unavailable' in found) {
        sendFramed(req, res, 200, 'Requests', unavailable);
        return;
      }
      if ('problem' in found) problems.unshift(found.problem);
      const shape = { base: base(req), agents: await agentNames(), filters: { ...filters, agent } };
      if (!('records' in found) || problems.length > 0) {
        const told = problems.map((problem) => notice('problem', problem));
        sendFramed(req, res, 400, 'Requests', html`${told}${requestsTable({ ...shape, entries: [] })}`);
        return;
      }
      // Newest first: the page ends at the first task older than `from`.
      const examined = await found.records.tasks.recent({
        limit: WINDOW,
        ...(before === undefined ? {} : { before }),
      });
      const inRange = examined.filter((entry) => after === undefined || (entry.changedAt ?? 0) >= after);
      const matching = inRange.filter((entry) => matches(entry, filters));
      const shown = matching.slice(0, SHOWN);
      // The next page starts where this one stopped looking: after the last row shown when more
      // matched, else after the last task examined, while the window was full and still in range.
      const last =
        matching.length > SHOWN ? shown.at(-1) : examined.length === WINDOW ? inRange.at(-1) : undefined;
      const older =
        inRange.length === examined.length || matching.length > SHOWN ? last?.changedAt : undefined;
      sendFramed(req, res, 200, 'Requests', requestsTable({ ...shape, entries: shown, older }));
    }),
  );

  router.get(
    '/requests/:id',
    route(async (req, res) => {
      const found = await recordsFor(req);
      const entry = 'records' in found ? await found.records.tasks.find(idOf(req)) : undefined;
      if (!('records' in found) || !entry) {
        const why =
          'unavailable' in found
            ? unavailable
            : html`${notice('problem', 'problem' in found ? found.problem : `There is no request ${idOf(req)}.`)}`;
        sendFramed(req, res, 404, 'No such request', why);
        return;
      }
      const agent = agentAsked(req) === card.name ? '' : agentAsked(req);
      const { runs: runsOf, events: feed } = found.records;
      const conversation = entry.task.metadata?.[CONVERSATION_KEY];
      const [state, progress] = await Promise.all([
        runsOf && typeof conversation === 'string' ? runsOf.load(conversation) : undefined,
        feed ? progressSoFar(feed, entry.task.id) : undefined,
      ]);
      const detail = requestDetail({
        base: base(req),
        agent,
        entry,
        messages: runsOf ? (state?.messages ?? []) : undefined,
        progress,
      });
      sendFramed(req, res, 200, `Request ${entry.task.id}`, detail);
    }),
  );

  router.get(
    '/requests/:id/events',
    route(async (req, res) => {
      const found = await recordsFor(req);
      const feed = 'records' in found ? found.records.events : undefined;
      const after = feed ? await progressAfter(req, feed) : undefined;
      if (after === 'unreadable') {
        res.status(400).type('text').send('`after` (or Last-Event-ID) must be a position: a whole number.');
        return;
      }
      await streamSnapshots(req, res, {
        logger,
        ...(feed && after !== undefined
          ? { progress: (signal) => followProgress(feed, idOf(req), { after, signal }) }
          : {}),
        read: async () => {
          const entry = 'records' in found ? await found.records.tasks.find(idOf(req)) : undefined;
          if (!entry) return undefined;
          const task = taskView(entry.task);
          return { snapshot: { task }, done: hasEnded(task.state) };
        },
      });
    }),
  );
  return router;
}
