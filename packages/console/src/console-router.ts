import type { CostBook } from '@switchboard/host';
import type { OperatorRoutes, OperatorSide } from '@switchboard/host/approvals';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import type { AgentRecords } from './agent-records.ts';
import type { EvalsView } from './evals-view.ts';
import { CONSOLE_CSS } from './html/console-css.ts';
import { LIVE_JS } from './html/live-js.ts';
import { signInPage } from './pages/sign-in-page.ts';
import { approvalsRoutes } from './routes/approvals-routes.ts';
import { base, type Signed, sendPage } from './routes/console-context.ts';
import { costsRoutes } from './routes/costs-routes.ts';
import { evalsRoutes } from './routes/evals-routes.ts';
import { requestsRoutes } from './routes/requests-routes.ts';
import { shadowRoutes } from './routes/shadow-routes.ts';
import { teamRoutes } from './routes/team-routes.ts';
import { traceRoutes } from './routes/trace-routes.ts';
import {
  clearSession,
  csrfMatches,
  csrfToken,
  operatorOf,
  sameOrigin,
  sessionToken,
  setSession,
} from './session/operator-session.ts';
import type { ShadowView } from './shadow-view.ts';
import type { TeamView } from './team-view.ts';
import type { TraceView } from './trace-view.ts';

/** Options of {@link consoleRouter}: the host's operator side, and what the console adds. */
export interface ConsoleOptions extends OperatorSide {
  /**
   * Origins besides the request's own that the console's forms may be posted from (a proxy's public
   * origin, `https://ops.example.com`, when it rewrites `Host`). Default none.
   */
  origins?: readonly string[];
  /** What the team page shows: its agents, cards, replicas and queues (default: the host's own card only). */
  team?: TeamView;
  /**
   * The tasks of the team's other agents, for the requests pages' Agent filter (default: the host's
   * own only); `registryAgentRecords` composes it over the registry.
   */
  agents?: AgentRecords;
  /**
   * Mark the session cookie `Secure` (default: when the request came over HTTPS to this server). Set
   * it true behind a proxy that ends TLS, e.g. when the public URL is `https:`.
   */
  secureCookie?: boolean;
  /**
   * Failed sign-ins one client address may make a minute before the sign-in page refuses it (429)
   * for the rest of that minute (default 10; this process's count). Behind a proxy, set express's
   * `trust proxy` on the app so the address is the client's, not the proxy's.
   */
  signInAttemptsPerMinute?: number;
  /** Where a request's trace page reads its spans (e.g. {@link spanTraceView}); default: no traces. */
  trace?: TraceView;
  /** What the shadow page shows (e.g. {@link redisShadowView}); default: no shadow records. */
  shadow?: ShadowView;
  /** What the evals page shows (e.g. {@link fileEvalsView}); default: no eval reports. */
  evals?: EvalsView;
  /** Where the costs page reads its totals per agent per day (default none: the page says so). */
  costBook?: CostBook;
}

/**
 * The operators' console: web pages served beside the admin API (mount it under `/console` on a
 * host with an approval board, e.g. with {@link consoleRoutes}). An operator signs in with the same
 * credential the admin API takes (a static operator token or an identity provider's JWT of an
 * operator), kept in an HttpOnly SameSite=Strict cookie; every POST must come from the console's own
 * origin and carry the session's anti-forgery token. Pages are rendered on the server; everything a
 * user, a model or a tool wrote is inert text. The start page lists what waits, oldest first; one
 * click opens an approval (what will run, who asked and why), one more decides it, through the same
 * `decideApproval` the admin API uses.
 */
export function consoleRouter({
  origins = [],
  team,
  agents,
  secureCookie,
  signInAttemptsPerMinute = 10,
  trace,
  shadow,
  evals,
  costBook,
  ...side
}: ConsoleOptions): Router {
  const { logger, authenticate } = side;
  const router = express.Router();
  router.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
          objectSrc: ["'none'"],
        },
      },
      // Not no-referrer: under it a browser posts forms with `Origin: null`, which the origin check refuses.
      referrerPolicy: { policy: 'same-origin' },
    }),
    (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      next();
    },
  );
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 }));
  router.get('/assets/console.css', (_req, res) => {
    res.type('css').send(CONSOLE_CSS);
  });
  router.get('/assets/live.js', (_req, res) => {
    res.type('js').send(LIVE_JS);
  });
  router.get('/sign-in', (req, res) => sendPage(res, 200, signInPage({ base: base(req) })));
  // Guessing tokens is slow: a client address gets a few failed sign-ins a minute.
  const signInLimit = rateLimit({
    windowMs: 60_000,
    limit: signInAttemptsPerMinute,
    skipSuccessfulRequests: true,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    handler: (req, res) => {
      logger.warn({ address: req.ip }, 'console sign-in refused: too many failed sign-ins from this address');
      sendPage(
        res,
        429,
        signInPage({
          base: base(req),
          problem: 'Too many failed sign-ins from here. Wait a minute, then sign in with the operator token.',
        }),
      );
    },
  });
  router.post('/sign-in', signInLimit, async (req, res, next) => {
    try {
      if (!sameOrigin(req, origins)) {
        sendPage(
          res,
          403,
          signInPage({ base: base(req), problem: 'This sign-in did not come from the console’s own page.' }),
        );
        return;
      }
      const token = typeof req.body?.token === 'string' ? req.body.token.trim() : '';
      const operator = await operatorOf(authenticate, token);
      if (!operator) {
        logger.warn({}, 'console sign-in refused');
        sendPage(
          res,
          401,
          signInPage({
            base: base(req),
            problem:
              'That is not an operator’s token. Sign in with the admin API’s operator token (a user’s token does not sign in).',
          }),
        );
        return;
      }
      setSession(req, res, token, secureCookie ?? req.secure);
      logger.info({ operator: operator.id }, 'operator signed in to the console');
      res.redirect(303, `${base(req)}/`);
    } catch (error) {
      next(error);
    }
  });

  // Every route below needs a signed-in operator; a POST needs this origin and the session's token.
  router.use(async (req, res, next) => {
    try {
      const token = sessionToken(req);
      const operator = await operatorOf(authenticate, token);
      if (!operator || !token) {
        if (req.method === 'GET') res.redirect(303, `${base(req)}/sign-in`);
        else sendPage(res, 401, signInPage({ base: base(req), problem: 'Sign in first.' }));
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        if (!sameOrigin(req, origins) || !csrfMatches(token, req.body?.csrf)) {
          logger.warn({ operator: operator.id, path: req.path }, 'console refused a cross-site request');
          res
            .status(403)
            .type('text')
            .send('Refused: this request did not come from the console’s own pages.');
          return;
        }
      }
      res.locals.signed = { operator, token, csrf: csrfToken(token) } satisfies Signed;
      next();
    } catch (error) {
      next(error);
    }
  });
  router.post('/sign-out', (req, res) => {
    clearSession(req, res, secureCookie ?? req.secure);
    res.redirect(303, `${base(req)}/sign-in`);
  });
  router.use(approvalsRoutes(side), requestsRoutes(side, agents), teamRoutes(side, team));
  router.use(
    traceRoutes(side, trace),
    shadowRoutes(shadow, trace),
    evalsRoutes(evals),
    costsRoutes(costBook),
  );

  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error }, 'console request failed');
    // A live stream already under way just ends; the browser's EventSource reconnects.
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(500).type('text').send('The console could not answer; see the server log.');
  });
  return router;
}

/**
 * The console as operator routes for `hostAgent` (`http.operatorRoutes`), at `/console`.
 *
 * @example
 * hostAgent({ ..., approvals: board, http: { port: 4100, operatorRoutes: [consoleRoutes()] } });
 */
export function consoleRoutes(options: Omit<ConsoleOptions, keyof OperatorSide> = {}): OperatorRoutes {
  return { path: CONSOLE_PATH, routes: (side) => consoleRouter({ ...side, ...options }) };
}

/** Where a supervisor serves the console. */
export const CONSOLE_PATH = '/console';
