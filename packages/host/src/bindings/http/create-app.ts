import type { AgentCard } from '@a2a-js/sdk';
import { type A2ARequestHandler, UnauthenticatedUser, type User } from '@a2a-js/sdk/server';
import { jsonRpcHandler, restHandler, type UserBuilder } from '@a2a-js/sdk/server/express';
import { type Logger, stderrLogger } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { HostError } from '../../errors.ts';
import {
  InternalServerError,
  newErrorId,
  traceIdOf,
} from '../../middleware/conceal-errors/conceal-errors.ts';
import { limitStatus } from '../../middleware/limits/limit-status.ts';
import { agentCardRoute, type UnversionedCardShape } from './agent-card-route.ts';
import { assertCardDeclaresBearer, bearerAuth, requiredBearerSchemes } from './bearer-auth.ts';
import { eventStreamResume } from './event-stream-resume.ts';
import { healthRoutes, type ReadinessCheck } from './health-routes.ts';
import { BODY_LIMIT, jsonBody } from './json-body.ts';
import { A2A_HTTP_PATHS } from './paths.ts';
import { type HttpBinding, sendProblem } from './problems.ts';
import { wireIdCheck } from './wire-id-check.ts';

/** Options of {@link createA2aHttpApp}. */
export interface A2aHttpAppOptions {
  /** The SDK request handler that runs the agent (see `createAgentHandler`). */
  requestHandler: A2ARequestHandler;
  /** The v1.0 card served at `/.well-known/agent-card.json`; read once, when the app is created. */
  card: AgentCard;
  /**
   * Bearer auth of the JSON-RPC and REST routes (default: none): who each caller is, from what they
   * sent (`staticTokenAuthenticator`, an identity provider's JWTs, ...). The card must declare a
   * required bearer scheme: build it with `buildAgentCard({ ..., bearerAuth: true })`.
   */
  auth?: {
    authenticate: Authenticator;
    /**
     * This agent takes service callers only (a team's worker): a refused token is told to go to
     * the team's supervisor instead (default false).
     */
    servicesOnly?: boolean;
  };
  /**
   * Largest request body, as bytes or a size like `512kb` (default `256kb`: a message's content is
   * limited far below it, see `HostLimits`; the queue's `maxRequestBytes` matches it).
   */
  bodyLimit?: string | number;
  /** Decides `GET /readyz` (default: always ready). */
  readiness?: ReadinessCheck;
  /** Default: warnings and errors to stderr. */
  logger?: Logger;
  /**
   * Also speak A2A v0.3 (default true): the SDK's v0.3 compatibility layer on the JSON-RPC and REST
   * routes (chosen per request by `A2A-Version`: absent or `0.3`), and the v0.3 card for v0.3
   * readers. The card must list its HTTP interfaces for protocol 0.3 too, as `buildAgentCard` does
   * by default; turn both off together.
   */
  legacyCompat?: boolean;
  /**
   * The card shape a request without `A2A-Version` gets (default `hybrid`: the v1.0 card with the
   * v0.3 fields added, which v1.0 clients that send no header and v0.3 peers both read; a strict
   * v1.0 schema check refuses the extra fields, so pick `1.0` when every reader is one).
   */
  unversionedCard?: UnversionedCardShape;
}

const CheckedOptions = z.object({
  bodyLimit: z.union([
    z.number().int().positive(),
    z.string().regex(BODY_LIMIT, 'write a size such as "1mb", "512kb" or "2000b"'),
  ]),
  auth: z
    .object({
      authenticate: z.custom((value) => typeof value === 'function', 'must be an Authenticator function'),
      servicesOnly: z.boolean().optional(),
    })
    .optional(),
});

/**
 * An Express app that hosts one agent over A2A v1.0 HTTP, and v0.3 unless `legacyCompat` is false:
 * - `POST /a2a/jsonrpc` (JSON-RPC) and `/a2a/rest/*` (HTTP+JSON), the SDK's own handlers, behind
 *   optional bearer auth and a body limit (413 when exceeded);
 * - `GET /.well-known/agent-card.json`, the card by `A2A-Version` (v1.0 ProtoJSON for `1.0`, the
 *   v0.3 card for `0.3`, the `unversionedCard` shape, hybrid by default, without one) with caching
 *   headers; with `legacyCompat`, also at `/.well-known/agent.json`, where clients before 0.3 ask;
 * - `GET /healthz` and `GET /readyz`, public.
 *
 * @example
 * const { requestHandler, card } = createAgentHandler({ agent, model, card: agentCard });
 * const server = await startA2aHttpServer({ app: createA2aHttpApp({ requestHandler, card }), port: 8080 });
 */
export function createA2aHttpApp({
  requestHandler,
  card,
  auth,
  bodyLimit = '256kb',
  readiness,
  logger = stderrLogger(),
  legacyCompat = true,
  unversionedCard = 'hybrid',
}: A2aHttpAppOptions): Express {
  checkOptions({ requestHandler, card, auth, bodyLimit, readiness, legacyCompat });
  if (!auth && requiredBearerSchemes(card).length > 0) {
    logger.warn({ agent: card.name }, 'the card requires a bearer token but auth is off: nothing checks it');
  }
  for (const binding of ['JSONRPC', 'HTTP+JSON']) {
    if (!card.supportedInterfaces.some((entry) => entry.protocolBinding === binding)) {
      logger.warn({ agent: card.name, binding }, 'the card lists no interface for a binding this app serves');
      continue;
    }
    const listsV03 = card.supportedInterfaces.some(
      (entry) => entry.protocolBinding === binding && entry.protocolVersion === '0.3',
    );
    if (legacyCompat && !listsV03) {
      logger.warn(
        { agent: card.name, binding },
        'legacyCompat is on but the card lists no protocol 0.3 interface for this binding: v0.3 requests will fail with VersionNotSupported; build the card with buildAgentCard (legacyCompat on by default)',
      );
    } else if (!legacyCompat && listsV03) {
      logger.warn(
        { agent: card.name, binding },
        'the card lists a protocol 0.3 interface for this binding but legacyCompat is off: v0.3 clients will fail; build the card with legacyCompat: false',
      );
    }
  }

  const users = new WeakMap<Request, User>();
  const userBuilder: UserBuilder = async (req) => users.get(req) ?? new UnauthenticatedUser();
  const compat = { enabled: legacyCompat };

  const app = express();
  app.disable('x-powered-by');
  const cardPaths = legacyCompat
    ? [A2A_HTTP_PATHS.agentCard, A2A_HTTP_PATHS.legacyAgentCard]
    : A2A_HTTP_PATHS.agentCard;
  app.get(cardPaths, agentCardRoute({ card, legacyCompat, unversioned: unversionedCard }));
  app.use(healthRoutes({ ...(readiness ? { readiness } : {}), logger }));
  // SSE ids, Last-Event-ID (or ?lastEventId=) and the caller-gone signal, for SubscribeToTask.
  const resume = eventStreamResume();
  const { contextBuilder } = resume;
  const mount = (binding: HttpBinding, path: string, handler: RequestHandler) => {
    const authenticate = auth ? [bearerAuth({ ...auth, binding, users, logger })] : [];
    app.use(
      path,
      ...authenticate,
      ...jsonBody({ binding, limit: bodyLimit, logger }),
      // Ids as sent: the SDK's v1.0 reader would turn an object into "[object Object]".
      wireIdCheck(binding),
      limitStatus(),
      resume.middleware,
      handler,
      internalError(binding, logger),
    );
  };
  mount(
    'jsonrpc',
    A2A_HTTP_PATHS.jsonRpc,
    jsonRpcHandler({ requestHandler, userBuilder, contextBuilder, legacyCompat: compat }),
  );
  mount(
    'rest',
    A2A_HTTP_PATHS.rest,
    restHandler({ requestHandler, userBuilder, contextBuilder, legacyCompat: compat }),
  );
  return app;
}

function checkOptions(options: Omit<A2aHttpAppOptions, 'logger'>): void {
  const problems: string[] = [];
  if (typeof options.requestHandler?.sendMessage !== 'function') {
    problems.push(
      'requestHandler must be an A2A request handler, e.g. createAgentHandler(...).requestHandler',
    );
  }
  if (!Array.isArray(options.card?.supportedInterfaces)) {
    problems.push('card must be a v1.0 AgentCard, e.g. from buildAgentCard(...)');
  }
  if (options.readiness !== undefined && typeof options.readiness !== 'function') {
    problems.push('readiness must be a function returning a boolean (or a promise of one)');
  }
  if (typeof options.legacyCompat !== 'boolean') {
    problems.push('legacyCompat must be true or false');
  }
  const parsed = CheckedOptions.safeParse(options);
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  if (problems.length > 0) {
    throw new HostError('INVALID_OPTIONS', {
      message: `createA2aHttpApp options are not valid: ${problems.join('; ')}.`,
    });
  }
  if (options.auth) assertCardDeclaresBearer(options.card);
}

/** Last resort of an A2A route: logs the error with an error id and answers in the binding's shape. */
function internalError(binding: HttpBinding, logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    const errorId = newErrorId();
    const traceId = traceIdOf();
    logger.error(
      { err: error, errorId, ...(traceId ? { traceId } : {}), binding, path: req.originalUrl },
      'A2A HTTP request failed',
    );
    if (res.headersSent) {
      next(error);
      return;
    }
    sendProblem({
      res,
      binding,
      problem: 'INTERNAL',
      message: new InternalServerError(errorId).message,
    });
  };
}
