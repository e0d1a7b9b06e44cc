import { createHash, timingSafeEqual } from 'node:crypto';
import type { User } from '@a2a-js/sdk/server';
import { z } from 'zod';

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
  readonly userName: string;

  constructor(userName: string) {
    this.userName = userName;
  }
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Finds the user of a presented token, comparing against every configured token in constant time. */
export function tokenVerifier(
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

/** The user named by an `Authorization: Bearer <token>` value; undefined when it names none. */
export function bearerUser(
  authorization: string | undefined,
  verify: (presented: string) => string | undefined,
): AuthenticatedUser | undefined {
  const token = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
  const userName = token === undefined ? undefined : verify(token);
  return userName === undefined ? undefined : new AuthenticatedUser(userName);
}

/**
 * Authenticates a request by its `authorization` service parameter (`Bearer <token>`), as the HTTP
 * app does by its header: the user of a known token, undefined (refused) for any other. The queue
 * server's `authenticate`.
 *
 * @example
 * new A2aQueueServer({ requestHandler, card, address, redis, authenticate: bearerAuthenticator(tokens) });
 */
export function bearerAuthenticator(
  bearerTokens: Readonly<Record<string, string>>,
): (request: { serviceParameters: Readonly<Record<string, string>> }) => AuthenticatedUser | undefined {
  const verify = tokenVerifier(bearerTokens);
  return ({ serviceParameters }) => bearerUser(serviceParameters.authorization, verify);
}
