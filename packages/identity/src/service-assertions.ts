import { type Logger, Principal, PrincipalKind, stderrLogger } from '@switchboard/agent';
import { decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import { z } from 'zod';
import { type Authenticator, bearerToken } from './authenticator.ts';
import { IdentityError } from './errors.ts';
import type { ReplayGuard } from './replay-guard.ts';
import { SERVICE_KEY_ALGORITHM, serviceOfKeyId } from './service-keys.ts';
import { MAX_ASSERTION_LIFETIME_MS, requestDigest, SERVICE_ASSERTION_TYPE } from './service-signer.ts';
import type { TrustedKeys } from './trusted-keys.ts';

/** Options of {@link serviceAssertionAuthenticator}. */
export interface ServiceAssertionAuthenticatorOptions {
  /** This agent's name: the `aud` an assertion must carry to be accepted here. */
  audience: string;
  /** The service public keys this verifier trusts (see `trustedKeys`). */
  trustedKeys: TrustedKeys;
  /** Where accepted assertions are remembered until they expire, so each is used once. */
  replay: ReplayGuard;
  /**
   * The services that may act for someone else: sign for a user, an operator or another
   * service (in Switchboard's team, `['supervisor']`). Any other service's assertion must be about
   * itself, so a worker whose key is stolen cannot speak for users to the other workers.
   */
  delegators: readonly string[];
  /** How far the clocks of two services may differ (default 5 s). */
  clockToleranceSec?: number;
  /** Where refusals are logged, with the reason (default: stderr). */
  logger?: Logger;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const Claims = z.object({
  iss: z.string(),
  sub: z.string(),
  jti: z.string().min(1).max(200),
  iat: z.number(),
  exp: z.number(),
  kind: PrincipalKind,
  roles: z.array(z.string()).default([]),
  via: z.array(z.string()).default([]),
  request_sha256: z.string().optional(),
});

/** Why an assertion was refused: for the log only, never for the caller. */
type Refusal = { reason: string; level: 'info' | 'warn' | 'error'; err?: unknown };

/** The refusal a jose verification error stands for, by its code (which survives duplicate installs). */
function refusalOf(error: unknown): Refusal {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return { reason: 'expired', level: 'info' };
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return {
        reason:
          claim === 'aud'
            ? 'meant for another agent (aud)'
            : claim === 'typ'
              ? 'not an assertion (typ)'
              : `claim ${claim ?? '?'} not valid`,
        level: 'warn',
      };
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return { reason: 'signed by a key that is not trusted', level: 'warn' };
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return { reason: 'bad signature', level: 'warn' };
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return { reason: 'algorithm not allowed', level: 'warn' };
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return { reason: 'malformed assertion', level: 'warn' };
    default:
      return { reason: 'trusted keys unavailable', level: 'error', err: error };
  }
}

/**
 * Verifies on-behalf-of assertions (made by `serviceSigner`) presented as `Authorization: Bearer
 * <jws>`, and answers the principal they carry: the end user, with the signing service appended to
 * `via` (`user u-1024 via supervisor`), or the service itself (`{ kind: 'service', id: iss }`)
 * when it acts on its own account. An assertion is accepted only when
 * - it is signed by a trusted key, whose kid (`<service>:<label>`) names the issuer (`iss`);
 * - it is meant for this agent (`aud` = `audience`) and has not expired (lifetime ≤ 10 minutes);
 * - over the queue (`body` presented), it is bound to that exact request text (`request_sha256`);
 *   over HTTP (no body), it is not bound to a queued one;
 * - its `jti` has not been used before, except by the same queue job redelivered (`replay`);
 * - it is about its issuer itself, unless the issuer is one of the `delegators`.
 *
 * Bearer tokens that are not assertions (another `typ`, not a JWS) are left to other authenticators
 * without a word; every refused assertion is logged once with why, never with the token.
 *
 * @example
 * const authenticate = serviceAssertionAuthenticator({
 *   audience: 'orders',
 *   trustedKeys: trustedKeys({ source }),
 *   replay: new RedisReplayGuard({ redis, prefix: address.prefix }),
 *   delegators: ['supervisor'],
 * });
 */
export function serviceAssertionAuthenticator({
  audience,
  trustedKeys,
  replay,
  delegators,
  clockToleranceSec = 5,
  logger = stderrLogger(),
}: ServiceAssertionAuthenticatorOptions): Authenticator {
  if (
    !audience ||
    typeof trustedKeys?.resolve !== 'function' ||
    typeof replay?.firstUse !== 'function' ||
    !Array.isArray(delegators)
  ) {
    throw new IdentityError('INVALID_OPTIONS', {
      message:
        'serviceAssertionAuthenticator needs audience (this agent’s name), trustedKeys (see trustedKeys), replay (a ReplayGuard) and delegators (the services that may act for someone else, e.g. ["supervisor"]).',
    });
  }
  const mayDelegate = new Set(delegators);
  return async ({ authorization, body, jobId }) => {
    const token = bearerToken(authorization);
    if (token === undefined || !JWT_SHAPE.test(token)) return undefined;
    let header: { kid?: unknown; typ?: unknown };
    try {
      header = decodeProtectedHeader(token);
    } catch {
      return undefined;
    }
    if (header.typ !== SERVICE_ASSERTION_TYPE) return undefined;
    const kid = typeof header.kid === 'string' ? header.kid.slice(0, 100) : undefined;
    const refuse = ({ level, err, reason }: Refusal, fields: Record<string, unknown> = {}): undefined => {
      logger[level](
        { reason, kid, audience, ...(jobId ? { jobId } : {}), ...fields, ...(err ? { err } : {}) },
        'service assertion refused',
      );
      return undefined;
    };
    const keyService = serviceOfKeyId(kid);
    if (!keyService) return refuse({ reason: 'key id names no service', level: 'warn' });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, trustedKeys.resolve, {
        audience,
        algorithms: [SERVICE_KEY_ALGORITHM],
        typ: SERVICE_ASSERTION_TYPE,
        clockTolerance: clockToleranceSec,
        requiredClaims: ['iss', 'sub', 'jti', 'iat', 'exp'],
      }));
    } catch (error) {
      return refuse(refusalOf(error));
    }
    const claims = Claims.safeParse(payload);
    if (!claims.success) return refuse({ reason: 'claims not valid', level: 'warn' });
    const { iss, sub, jti, iat, exp, kind, roles, via, request_sha256: bound } = claims.data;
    const about = { iss, jti };
    if (iss !== keyService) {
      return refuse(
        { reason: `issuer "${iss}" is not the key's service "${keyService}"`, level: 'warn' },
        about,
      );
    }
    if ((exp - iat) * 1_000 > MAX_ASSERTION_LIFETIME_MS) {
      return refuse({ reason: 'lives longer than 10 minutes', level: 'warn' }, about);
    }
    if (body !== undefined && bound === undefined) {
      return refuse({ reason: 'not bound to the request it came with', level: 'warn' }, about);
    }
    if (body !== undefined && bound !== requestDigest(body)) {
      return refuse({ reason: 'bound to another request', level: 'warn' }, about);
    }
    if (body === undefined && bound !== undefined) {
      return refuse({ reason: 'bound to a queued request, presented over HTTP', level: 'warn' }, about);
    }
    const ownAccount = kind === 'service' && sub === iss && via.length === 0;
    if (!ownAccount && !mayDelegate.has(iss)) {
      return refuse(
        { reason: `"${iss}" may not act for someone else (not one of the delegators)`, level: 'warn' },
        { ...about, for: `${kind}:${sub}` },
      );
    }
    const principal = Principal.safeParse(
      ownAccount ? { id: iss, kind, roles, via: [] } : { id: sub, kind, roles, via: [...via, iss] },
    );
    if (!principal.success) return refuse({ reason: 'principal not valid', level: 'warn' }, about);
    let first: boolean;
    try {
      first = await replay.firstUse({
        issuer: iss,
        jti,
        jobId,
        rememberUntil: (exp + clockToleranceSec) * 1_000,
      });
    } catch (error) {
      return refuse({ reason: 'replay store unavailable', level: 'error', err: error }, about);
    }
    if (!first) return refuse({ reason: 'already used (replayed)', level: 'warn' }, about);
    return principal.data;
  };
}
