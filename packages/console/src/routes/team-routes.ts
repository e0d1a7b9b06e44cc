import express, { type Router } from 'express';
import { teamPage } from '../pages/team-page.ts';
import type { TeamView } from '../team-view.ts';
import { type ConsoleSide, route, sendFramed } from './console-context.ts';

/** The team page. */
export function teamRoutes({ card }: ConsoleSide, team: TeamView | undefined): Router {
  const router = express.Router();
  router.get(
    '/team',
    route(async (req, res) => {
      const view = team ? await team.read() : undefined;
      sendFramed(req, res, 200, 'Team', teamPage({ card, view }));
    }),
  );
  return router;
}
