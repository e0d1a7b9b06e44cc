import { createHash, timingSafeEqual } from 'node:crypto';
import type { AgentCard } from '@a2a-js/sdk';
import type { User } from '@a2a-js/sdk/server';
import type { Logger } from '@switchboard/agent';
import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { A2aError } from '../errors.js';
import { type HttpBinding, sendProblem } from './problems.js';

/** A token as it can travel in `Authorization: Bearer <token>` (RFC 6750 b64token). */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Bearer-token auth of the A2A routes: each token maps to the user name it authenticates. */
export const BearerAuthOptions = z.object({
  bearerTokens: z
    .record(
      z.string().regex(TOKEN, 'a token must be letters, digits or -._~+/ (as sent after "Bearer ")'),
      z.string().min(1, 'every token needs a non-empty user name'),
    )
    .refine((tokens) => Object.keys(tokens).length > 0, 'give at least one token, or leave auth out'),
});
export type BearerAuthOptions = z.infer<typeof BearerAuthOptions>;

/** A caller authenticated by this server; `userName` is what `canApprove` and the task store see. */
export class AuthenticatedUser implements User {
  readonly isAuthenticated = true;
  constructor(readonly userName: string) {}
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Finds the user of a presented token, comparing against every configured token in constant time. */
function tokenVerifier(
  bearerTokens: Readonly<Record<string, string>>,
): (presented: string) => string | undefined {
  const entries = Object.entries(bearerTokens).map(([token, userName]) => ({
    hash: digest(token),
    userName,
  }));
  return (presented) => {
    const hash = digest(presented);
    let found: string | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(entry.hash, hash) && found === undefined) found = entry.userName;
    }
    return found;
  };
}

/**
 * Middleware that admits only requests with a known bearer token and records who sent them in
 * `users`, for the SDK's `userBuilder`. Others get 401 with `WWW-Authenticate: Bearer`.
 */
export function bearerAuth({
  bearerTokens,
  binding,
  users,
  logger,
}: BearerAuthOptions & {
  binding: HttpBinding;
  users: WeakMap<Request, User>;
  logger: Logger;
}): RequestHandler {
  const verify = tokenVerifier(bearerTokens);
  return (req, res, next) => {
    const match = /^Bearer +(\S+) *$/i.exec(req.header('authorization') ?? '');
    const userName = match?.[1] === undefined ? undefined : verify(match[1]);
    if (userName !== undefined) {
      users.set(req, new AuthenticatedUser(userName));
      next();
      return;
    }
    logger.info({ binding, path: req.originalUrl, tokenSent: Boolean(match) }, 'unauthenticated A2A request');
    res.setHeader(
      'WWW-Authenticate',
      match ? 'Bearer realm="a2a", error="invalid_token"' : 'Bearer realm="a2a"',
    );
    sendProblem({
      res,
      binding,
      problem: 'UNAUTHENTICATED',
      message: match
        ? 'The bearer token is not valid. Send a token this agent was configured with.'
        : 'This agent requires a bearer token. Send "Authorization: Bearer <token>".',
    });
  };
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
  throw new A2aError('INVALID_OPTIONS', {
    message: `auth.bearerTokens is set, but the agent card "${card.name}" declares no required HTTP bearer security scheme, so clients would not know to send a token. Build the card with buildAgentCard({ ..., bearerAuth: true }).`,
  });
}
