import { type Logger, type Principal, stderrLogger } from '@switchboard/agent';
import { createRemoteJWKSet, decodeProtectedHeader, type JWTPayload, jwtVerify } from 'jose';
import { z } from 'zod';
import { type Authenticator, bearerToken } from './authenticator.ts';
import { LEGACY_USER_CLAIM } from './deprecated.ts';
import { IdentityError } from './errors.ts';
import { SERVICE_ASSERTION_TYPE } from './service-signer.ts';
import { CallerId, RESERVED_IDS } from './static-tokens.ts';

/** Hosts an identity provider may be reached at over plain http: this machine only. */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

const ProviderUrl = z
  .string()
  .trim()
  .refine((value) => {
    const url = URL.parse(value);
    return url?.protocol === 'https:' || (url?.protocol === 'http:' && LOOPBACK.test(url.hostname));
  }, 'must be an https:// URL (http:// only for a loopback host such as 127.0.0.1 or localhost, in development)');

/** The signature algorithms an identity provider's public keys can verify (never `none`, never HS*). */
export const JWT_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

const Claim = z
  .string()
  .trim()
  .min(1, 'must name a claim, e.g. "sub" or "realm_access.roles"')
  .max(200, 'must be at most 200 characters');

/**
 * How to verify an OAuth 2 / OpenID Connect identity provider's bearer JWTs (access tokens):
 * - `issuer`: the exact `iss` of its tokens (its OIDC issuer URL, e.g. `https://login.example.com/realms/acme`);
 * - `audience`: the `aud` a token must be meant for (this API's identifier, or one of several);
 * - `jwksUrl`: where its signing keys are published (`jwks_uri` of its discovery document);
 *   https, or http for a loopback host only;
 * - `userClaim`: the claim that holds the caller's id (default `sub`; the deprecated
 *   name of 0.2 is read when `userClaim` is not given, see `deprecated.ts`);
 * - `rolesClaim`: the claim that holds the caller's roles, a list of strings or one space-separated
 *   string; a dotted path reaches into objects, e.g. Keycloak's `realm_access.roles` (default `roles`);
 * - `operatorRole`: a caller with this role is an operator, any other a user (default `operator`);
 * - `clockToleranceSec`: how far the clocks of the provider and this host may differ (default 30);
 * - `algorithms`: the signature algorithms accepted (default RS256, PS256, ES256, EdDSA; only
 *   asymmetric ones: a shared-secret HS* or `none` cannot be verified with published keys);
 * - `jwksCooldownSec`: the least time between two fetches of the keys when a token names a key id
 *   they do not have; a rotated key is fetched on first sight once this has passed (default 30).
 */
export const JwtAuthenticatorOptions = z
  .object({
    issuer: ProviderUrl,
    audience: z.union([
      z.string().trim().min(1, 'must not be empty'),
      z.array(z.string().trim().min(1, 'must not be empty')).min(1, 'must name at least one audience'),
    ]),
    jwksUrl: ProviderUrl,
    userClaim: Claim.optional(),
    /** @deprecated Renamed `userClaim`; read when `userClaim` is not given, for one release. */
    [LEGACY_USER_CLAIM]: Claim.optional(),
    rolesClaim: Claim.default('roles'),
    operatorRole: z.string().trim().min(1, 'must not be empty').max(100).default('operator'),
    clockToleranceSec: z
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(0, 'must not be negative')
      .max(300, 'must be at most 300 s; fix the clocks rather than widening this')
      .default(30),
    algorithms: z
      .array(
        z.enum(JWT_ALGORITHMS, {
          error: `must be asymmetric algorithms verifiable with published keys (${JWT_ALGORITHMS.join(', ')}); never "none" or HS*`,
        }),
      )
      .min(1, 'must list at least one algorithm')
      .default(['RS256', 'PS256', 'ES256', 'EdDSA']),
    jwksCooldownSec: z.number().min(0, 'must not be negative').max(3600).default(30),
  })
  .refine(
    (options) =>
      options.userClaim === undefined ||
      options[LEGACY_USER_CLAIM] === undefined ||
      options.userClaim === options[LEGACY_USER_CLAIM],
    {
      path: [LEGACY_USER_CLAIM],
      message: `is the deprecated name of userClaim and names another claim; keep only userClaim`,
    },
  )
  .transform(({ [LEGACY_USER_CLAIM]: legacy, userClaim, ...rest }) => ({
    ...rest,
    userClaim: userClaim ?? legacy ?? 'sub',
  }));
export type JwtAuthenticatorOptions = z.input<typeof JwtAuthenticatorOptions>;

/** The OpenID Connect discovery URL of an issuer, as an agent card names it. */
export function openIdConfigurationUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

/** How much of a JWT is checked before its signature: three base64url parts (the last empty for `none`). */
/** The `typ` of a JWS's protected header, if it has a readable one. */
function typeOf(token: string): unknown {
  try {
    return decodeProtectedHeader(token).typ;
  } catch {
    return undefined;
  }
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A claim by name, or by dotted path into nested objects when no claim has the whole name. */
function claimAt(payload: JWTPayload, name: string): unknown {
  if (name in payload) return payload[name];
  let value: unknown = payload;
  for (const key of name.split('.')) {
    if (typeof value !== 'object' || value === null || !(key in value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Roles as a list (Keycloak, Entra) or a space-separated string (`scope`-style); anything else none. */
function rolesOf(value: unknown): string[] {
  const roles = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [];
  return roles.filter((role): role is string => typeof role === 'string' && role.length > 0);
}

/** Why a token was refused, for the log; never sent to the caller. */
type Refusal = { reason: string; claim?: string; level: 'info' | 'warn'; err?: unknown };

/** The refusal a verification error stands for (by jose's error code, which survives duplicate installs). */
function refusalOf(error: unknown): Refusal {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return { reason: 'expired', level: 'info' };
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const { reason } = error as { reason?: string };
      if (reason === 'missing')
        return { reason: 'missing claim', level: 'info', ...(claim ? { claim } : {}) };
      const byClaim: Record<string, string> = {
        aud: 'wrong audience',
        iss: 'wrong issuer',
        nbf: 'not yet valid',
      };
      return {
        reason: byClaim[claim ?? ''] ?? 'claim check failed',
        level: 'info',
        ...(claim ? { claim } : {}),
      };
    }
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return { reason: 'unknown key', level: 'info' };
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return { reason: 'bad signature', level: 'info' };
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return { reason: 'algorithm not allowed', level: 'info' };
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return { reason: 'malformed token', level: 'info' };
    default:
      // The keys could not be had (the provider down, a timeout, not a key set) or something else
      // went wrong on our side: the caller may well hold a good token.
      return { reason: 'identity provider keys unavailable', level: 'warn', err: error };
  }
}

/**
 * Authenticates `Authorization: Bearer <jwt>` issued by an OAuth 2 / OpenID Connect identity
 * provider: verifies the signature against the provider's published keys (JWKS, fetched when first
 * needed, kept 10 minutes, and fetched again when a token names a key id they lack, so a rotated
 * key works without a restart), then issuer, audience, expiry (required) and not-before, within the
 * clock tolerance. The caller is an `operator` when its roles include `operatorRole`, else a
 * `user`, with the id of `userClaim` and the roles of `rolesClaim`.
 *
 * Tokens that are not shaped like a JWT are left to other authenticators (undefined, no log). Every
 * refused JWT is logged once with why (expired, wrong audience, unknown key, bad signature, missing
 * claim, ...), never with the token, and answered undefined: it never throws for a credential.
 * Throws `INVALID_OPTIONS` naming every wrong option.
 *
 * @example
 * const authenticate = jwtAuthenticator({
 *   issuer: 'https://login.example.com/realms/acme',
 *   audience: 'switchboard',
 *   jwksUrl: 'https://login.example.com/realms/acme/protocol/openid-connect/certs',
 *   rolesClaim: 'realm_access.roles',
 * });
 */
export function jwtAuthenticator({
  logger = stderrLogger(),
  ...options
}: JwtAuthenticatorOptions & { logger?: Logger }): Authenticator {
  const parsed = JwtAuthenticatorOptions.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'options'}: ${issue.message}`,
    );
    throw new IdentityError('INVALID_OPTIONS', {
      message: `jwtAuthenticator options are not valid: ${problems.join('; ')}.`,
    });
  }
  const settings = parsed.data;
  const keys = createRemoteJWKSet(new URL(settings.jwksUrl), {
    cacheMaxAge: 10 * 60_000,
    cooldownDuration: settings.jwksCooldownSec * 1_000,
    timeoutDuration: 5_000,
  });

  const refuse = (refusal: Refusal, token: string): undefined => {
    const { level, err, ...fields } = refusal;
    let header: { kid?: string; alg?: string } = {};
    try {
      header = decodeProtectedHeader(token);
    } catch {
      // Not even a readable header: the reason says so.
    }
    logger[level](
      {
        ...fields,
        ...(typeof header.kid === 'string' ? { kid: header.kid.slice(0, 100) } : {}),
        ...(typeof header.alg === 'string' ? { alg: header.alg.slice(0, 20) } : {}),
        ...(err === undefined ? {} : { err }),
      },
      'identity provider token refused',
    );
    return undefined;
  };

  return async ({ authorization }) => {
    const token = bearerToken(authorization);
    if (token === undefined || !JWT_SHAPE.test(token)) return undefined;
    // A Switchboard service's assertion is the service authenticator's to judge, not the provider's.
    if (typeOf(token) === SERVICE_ASSERTION_TYPE) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        audience: settings.audience,
        clockTolerance: settings.clockToleranceSec,
        algorithms: settings.algorithms,
        requiredClaims: ['exp'],
      }));
    } catch (error) {
      return refuse(refusalOf(error), token);
    }
    const claimed = claimAt(payload, settings.userClaim);
    const claim = settings.userClaim;
    if (claimed === undefined || claimed === null || claimed === '') {
      return refuse({ reason: 'missing claim', claim, level: 'info' }, token);
    }
    const id = CallerId.safeParse(claimed);
    if (!id.success) return refuse({ reason: 'id claim is not a valid id', claim, level: 'info' }, token);
    if (RESERVED_IDS.has(id.data.toLowerCase())) {
      return refuse({ reason: 'id claim is a reserved id', claim, level: 'info' }, token);
    }
    const roles = rolesOf(claimAt(payload, settings.rolesClaim));
    const principal: Principal = {
      id: id.data,
      kind: roles.includes(settings.operatorRole) ? 'operator' : 'user',
      // What a principal may carry: each role at most 100 characters, at most 50 of them.
      roles: roles.filter((role) => role.length <= 100).slice(0, 50),
      via: [],
    };
    return principal;
  };
}
