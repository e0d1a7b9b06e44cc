import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Principal } from '@switchboard/agent';
import type { Authenticator } from '@switchboard/identity';
import { parseCookie } from 'cookie';
import type { Request, Response } from 'express';

/** The cookie that holds an operator's sign-in. */
export const SESSION_COOKIE = 'switchboard_console';

/** How long a sign-in lasts in the browser (8 hours): the operator's credential may end it sooner. */
export const SESSION_MAX_AGE_MS = 8 * 60 * 60 * 1000;

/** The operator's credential as the browser holds it: the cookie, read by the server only. */
export function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const token = parseCookie(header)[SESSION_COOKIE];
  return token && /^\S{1,4096}$/.test(token) ? token : undefined;
}

/**
 * The operator a credential belongs to, asked of the admin API's own authenticator; undefined for
 * no credential, a bad one, or one that is not an operator's (a user's token signs in nobody).
 */
export async function operatorOf(
  authenticate: Authenticator,
  token: string | undefined,
): Promise<Principal | undefined> {
  if (!token) return undefined;
  const principal = await authenticate({ authorization: `Bearer ${token}` });
  return principal?.kind === 'operator' ? principal : undefined;
}

/**
 * Keeps the operator's credential in an HttpOnly, SameSite=Strict cookie scoped to the console's
 * path (Secure on HTTPS, or when `secure` says so): no page or script ever holds it, and no other site's request carries it.
 * Each request is authenticated again with it, so a revoked token or an expired JWT ends the session.
 */
export function setSession(req: Request, res: Response, token: string, secure = req.secure): void {
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: req.baseUrl || '/',
    maxAge: SESSION_MAX_AGE_MS,
  });
}

/** Ends the sign-in in this browser. */
export function clearSession(req: Request, res: Response, secure = req.secure): void {
  res.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: req.baseUrl || '/',
  });
}

/**
 * The anti-forgery token of a session: an HMAC of a fixed label keyed by the operator's credential.
 * Every form of the console carries it and every POST must return it; another site can neither read
 * it nor compute it, and it reveals nothing of the credential.
 */
export function csrfToken(token: string): string {
  return createHmac('sha256', token).update('switchboard-console-csrf-v1').digest('base64url');
}

/** Whether a form's `csrf` field is the session's anti-forgery token. */
export function csrfMatches(token: string, presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const [want, got] = [Buffer.from(csrfToken(token)), Buffer.from(presented)];
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Whether a POST comes from the console's own pages: its `Origin` is this server's own (scheme and
 * host of the request, or one of `origins`), or, from a browser that sends none, `Sec-Fetch-Site`
 * says same-origin. A forged cross-site form fails this before its token is even looked at.
 */
export function sameOrigin(req: Request, origins: readonly string[]): boolean {
  const origin = req.get('origin');
  if (origin === undefined) {
    const site = req.get('sec-fetch-site');
    return site === undefined || site === 'same-origin';
  }
  const own = `${req.protocol}://${req.get('host') ?? ''}`;
  return origin === own || origins.includes(origin);
}
