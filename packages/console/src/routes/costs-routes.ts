import { type CostBook, costDayOf } from '@switchboard/host';
import express, { type Router } from 'express';
import { html } from '../html/html.ts';
import { COST_PERIODS, costsPage } from '../pages/costs-page.ts';
import { notice } from '../pages/layout.ts';
import { base, route, sendFramed } from './console-context.ts';

const DEFAULT_PERIOD = 14;

/** The costs page: the cost book's totals per agent per day, over a period ending today (UTC). */
export function costsRoutes(costBook: CostBook | undefined): Router {
  const router = express.Router();
  router.get(
    '/costs',
    route(async (req, res) => {
      if (!costBook) {
        const none = notice(
          'problem',
          'This service keeps no cost book, so there are no cost totals to show.',
        );
        sendFramed(req, res, 200, 'Costs', html`${none}`);
        return;
      }
      const asked = req.query.days;
      const period = asked === undefined ? DEFAULT_PERIOD : COST_PERIODS.find((n) => String(n) === asked);
      if (period === undefined) {
        const told = notice(
          'problem',
          `There is no period of “${String(asked).slice(0, 40)}” days: pick ${COST_PERIODS.join(', ')}.`,
        );
        sendFramed(req, res, 400, 'Costs', html`${told}`);
        return;
      }
      const now = Date.now();
      const days = await costBook.days({
        from: costDayOf(new Date(now - (period - 1) * 86_400_000)),
        to: costDayOf(new Date(now)),
      });
      sendFramed(req, res, 200, 'Costs', costsPage({ base: base(req), days, period }));
    }),
  );
  return router;
}
