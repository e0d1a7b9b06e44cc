import type { AgentCard } from '@a2a-js/sdk';
import type { User } from '@a2a-js/sdk/server';
import type { Logger } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import { PrincipalUser } from '@switchboard/identity';
import type { Request, RequestHandler, Response } from 'express';
import { HostError } from '../../errors.ts';
import { type HttpBinding, sendProblem } from './problems.ts';

/**
 * Middleware that admits only requests whose bearer credential `authenticate` accepts, and records
 * who sent them in `users`, for the SDK's `userBuilder`. Others get 401 with `WWW-Authenticate: Bearer`.
 */
export function bearerAuth({
  authenticate,
  binding,
  users,
  logger,
  servicesOnly = false,
}: {
  authenticate: Authenticator;
  /** The agent takes service callers only: a refusal says to send the request to the supervisor. */
  servicesOnly?: boolean | undefined;
  binding: HttpBinding;
  users: WeakMap<Request, User>;
  logger: Logger;
}): RequestHandler {
  return (req, res, next) => {
    Promise.resolve(authenticate({ authorization: req.header('authorization') })).then((principal) => {
      if (principal) {
        users.set(req, new PrincipalUser(principal));
        next();
        return;
      }
      refuse(req, res);
    }, next);
  };

  function refuse(req: Request, res: Response): void {
    const match = /^Bearer\b/i.exec(req.header('authorization') ?? '');
    logger.info({ binding, path: req.originalUrl, tokenSent: Boolean(match) }, 'unauthenticated A2A request');
    res.setHeader(
      'WWW-Authenticate',
      match ? 'Bearer realm="a2a", error="invalid_token"' : 'Bearer realm="a2a"',
    );
    sendProblem({
      res,
      binding,
      problem: 'UNAUTHENTICATED',
      message: servicesOnly
        ? `${match ? 'The bearer token is not valid here. ' : ''}This agent takes requests from services only (its team’s supervisor); send your request to the supervisor.`
        : match
          ? 'The bearer token is not valid. Send a token this agent was configured with.'
          : 'This agent requires a bearer token. Send "Authorization: Bearer <token>".',
    });
  }
}

/** The names of the card's HTTP bearer security schemes that its security requirements use. */
export function requiredBearerSchemes(card: AgentCard): string[] {
  const bearer = Object.entries(card.securitySchemes ?? {}).flatMap(([name, scheme]) =>
    scheme.scheme?.$case === 'httpAuthSecurityScheme' && scheme.scheme.value.scheme.toLowerCase() === 'bearer'
      ? [name]
      : [],
  );
  const required = new Set((card.securityRequirements ?? []).flatMap((req) => Object.keys(req.schemes)));
  return bearer.filter((name) => required.has(name));
}

/** Refuses a card that does not tell clients to send a bearer token, when the server requires one. */
export function assertCardDeclaresBearer(card: AgentCard): void {
  if (requiredBearerSchemes(card).length > 0) return;
  throw new HostError('INVALID_OPTIONS', {
    message: `auth is on, but the agent card "${card.name}" declares no required HTTP bearer security scheme, so clients would not know to send a token. Build the card with buildAgentCard({ ..., bearerAuth: true }).`,
  });
}
