import { createHash, randomUUID } from 'node:crypto';
import { Principal } from '@switchboard/agent';
import { importJWK, SignJWT } from 'jose';
import { IdentityError } from './errors.ts';
import { SERVICE_KEY_ALGORITHM, type ServicePrivateKey, serviceOfKeyId } from './service-keys.ts';

/** The JWS `typ` of an on-behalf-of assertion, which tells it from any other bearer JWT. */
export const SERVICE_ASSERTION_TYPE = 'switchboard-assertion+jwt';

/** The longest an assertion may live, whatever the hop timeout: 10 minutes. */
export const MAX_ASSERTION_LIFETIME_MS = 10 * 60_000;

/** The base64url SHA-256 of a request's exact text: what a queued assertion is bound to. */
export function requestDigest(request: string): string {
  return createHash('sha256').update(request).digest('base64url');
}

/** What one assertion says. */
export interface AssertionClaims {
  /** The agent the request goes to (its card's name): the assertion's `aud`. */
  audience: string;
  /** Whom the request is for (the end user); default: the signing service on its own account. */
  principal?: Principal | undefined;
  /**
   * The exact request text (a queue job's JSON-RPC `request`): the assertion then holds its SHA-256
   * and fits no other request. Leave it out over HTTP, where the client gives no hook on the body.
   */
  request?: string;
  /** How long the assertion lives (default the signer's; at most {@link MAX_ASSERTION_LIFETIME_MS}). */
  lifetimeMs?: number;
}

/** Signs on-behalf-of assertions with one service's private key; see {@link serviceSigner}. */
export interface ServiceSigner {
  /** The signing service, from its key's kid: every assertion's `iss`. */
  readonly service: string;
  /** The key id, `<service>:<label>`. */
  readonly kid: string;
  /** A compact JWS for one request. */
  sign(claims: AssertionClaims): Promise<string>;
}

/** Options of {@link serviceSigner}. */
export interface ServiceSignerOptions {
  /** The service's private key (`SWITCHBOARD_SERVICE_KEY`). */
  key: ServicePrivateKey;
  /** Lifetime of an assertion that names none (default 60 000 ms). */
  lifetimeMs?: number;
}

/**
 * Signs a service's on-behalf-of assertions: short-lived JWTs (`typ` {@link SERVICE_ASSERTION_TYPE},
 * EdDSA, `kid` of the service's key) that say which service sends a request (`iss`), to which agent
 * (`aud`), for whom (`sub` and the claims `kind`, `roles`, `via` of the end user's principal, or the
 * service itself), until when (`iat`, `exp`), under a unique `jti`, and, for a queued request, over
 * which exact text (`request_sha256`). A reader of the job that carries one can attach it to no other
 * request, and cannot use it again once a verifier has seen its `jti`, nor after it expires.
 *
 * @example
 * const signer = serviceSigner({ key: config.serviceKey });
 * const jws = await signer.sign({ audience: 'orders', principal: context.principal, request });
 */
export function serviceSigner({ key, lifetimeMs = 60_000 }: ServiceSignerOptions): ServiceSigner {
  const service = serviceOfKeyId(key.kid);
  if (!service || !key.d) {
    throw new IdentityError('INVALID_OPTIONS', {
      message:
        'serviceSigner needs a service private key: an Ed25519 JWK with "d" and a kid "<service>:<label>" (see readServiceKey).',
    });
  }
  if (!Number.isFinite(lifetimeMs) || lifetimeMs <= 0) {
    throw new IdentityError('INVALID_OPTIONS', {
      message: `serviceSigner lifetimeMs must be a positive number of milliseconds, got ${lifetimeMs}.`,
    });
  }
  const signingKey = importJWK({ ...key, alg: SERVICE_KEY_ALGORITHM }, SERVICE_KEY_ALGORITHM);
  // A key that cannot be imported fails each sign() that awaits it, not the process.
  signingKey.catch(() => {});
  return {
    service,
    kid: key.kid,
    async sign({ audience, principal, request, lifetimeMs: lifetime = lifetimeMs }) {
      const who = principal
        ? Principal.parse(principal)
        : { id: service, kind: 'service' as const, roles: [], via: [] };
      const seconds = Math.max(
        1,
        Math.ceil(Math.min(Math.max(lifetime, 1), MAX_ASSERTION_LIFETIME_MS) / 1_000),
      );
      const now = Math.floor(Date.now() / 1_000);
      return new SignJWT({
        kind: who.kind,
        roles: who.roles,
        via: who.via,
        ...(request === undefined ? {} : { request_sha256: requestDigest(request) }),
      })
        .setProtectedHeader({ alg: SERVICE_KEY_ALGORITHM, kid: key.kid, typ: SERVICE_ASSERTION_TYPE })
        .setIssuer(service)
        .setAudience(audience)
        .setSubject(who.id)
        .setJti(randomUUID())
        .setIssuedAt(now)
        .setExpirationTime(now + seconds)
        .sign(await signingKey);
    },
  };
}
