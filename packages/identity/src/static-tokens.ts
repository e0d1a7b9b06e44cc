import { createHash, timingSafeEqual } from 'node:crypto';
import type { Principal, PrincipalKind } from '@switchboard/agent';
import { z } from 'zod';
import { type Authenticator, bearerToken } from './authenticator.ts';
import { LEGACY_USER_TOKENS } from './deprecated.ts';
import { IdentityError } from './errors.ts';

/** A token as it can travel in `Authorization: Bearer <token>` (RFC 6750 b64token). */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/**
 * A caller's id, however they authenticated: letters, digits or `._@-`, starting with a letter or
 * digit, at most 100 characters (e.g. `u-1024`, `ada@example.com`).
 */
export const CallerId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/, 'an id must be letters, digits or ._@- (at most 100)');

// The token check is on the record, not its key schema: zod reports a bad key only as "Invalid key
// in record", which would not say what is wrong with it.
const TokenMap = z.record(z.string(), CallerId).superRefine((tokens, context) => {
  for (const token of Object.keys(tokens)) {
    if (!TOKEN.test(token)) {
      context.addIssue({
        code: 'custom',
        path: [tokens[token] ?? ''],
        message: 'its token must be letters, digits or -._~+/ (as sent after "Bearer ")',
      });
    }
  }
});

/**
 * Static bearer tokens by the kind of caller who holds them, each token mapped to the caller's id:
 * `users` (token → user id), `operators` (token → operator name), `services` (token →
 * service name). The list a token is in decides its kind; for development and small installs —
 * an identity provider's JWTs are the way for the rest.
 */
export const StaticTokens = z.object({
  users: TokenMap.optional(),
  /** @deprecated Renamed `users` (end users are users, whatever the team serves); read as `users` for one release. */
  [LEGACY_USER_TOKENS]: TokenMap.optional(),
  operators: TokenMap.optional(),
  services: TokenMap.optional(),
});
export type StaticTokens = z.infer<typeof StaticTokens>;

/** Ids no caller may have: they read as the system itself in logs, audits and approvals. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([
  'system',
  'switchboard',
  'switchboard-service',
  'anonymous',
  'unknown',
  'admin',
  'root',
]);

const KINDS = { users: 'user', operators: 'operator', services: 'service' } as const;

type TokenLists = Pick<StaticTokens, keyof typeof KINDS>;

/**
 * The lists by their current names: the deprecated list of end users joins `users`. A token in
 * both for two different ids is a problem, since it could stand for only one of them.
 */
function currentLists(tokens: StaticTokens): { lists: TokenLists; problems: string[] } {
  const legacy = tokens[LEGACY_USER_TOKENS] ?? {};
  const problems = Object.entries(legacy)
    .filter(([token, id]) => tokens.users?.[token] !== undefined && tokens.users[token] !== id)
    .map(
      ([token]) =>
        `one token is listed in users as "${tokens.users?.[token]}" and in the deprecated ${LEGACY_USER_TOKENS} as "${legacy[token]}"; keep only users`,
    );
  const { [LEGACY_USER_TOKENS]: _legacy, ...rest } = tokens;
  const users = { ...legacy, ...tokens.users };
  return { lists: { ...rest, ...(Object.keys(users).length > 0 ? { users } : {}) }, problems };
}

const digest = (token: string): Buffer => createHash('sha256').update(token).digest();

/** Every problem with a set of static tokens: a token in two lists, an id shared across kinds, a reserved id. */
export function staticTokenProblems(tokens: StaticTokens): string[] {
  const parsed = StaticTokens.safeParse(tokens);
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  }
  const { lists, problems } = currentLists(parsed.data);
  const kindOfToken = new Map<string, string>();
  const kindsOfId = new Map<string, Set<string>>();
  for (const [list, kind] of Object.entries(KINDS) as [keyof typeof KINDS, PrincipalKind][]) {
    for (const [token, id] of Object.entries(lists[list] ?? {})) {
      const other = kindOfToken.get(token);
      if (other) problems.push(`one token is listed for both ${other} and ${list}; give each its own`);
      kindOfToken.set(token, list);
      if (RESERVED_IDS.has(id.toLowerCase())) {
        problems.push(`${list}: "${id}" is a reserved name; pick another id`);
      }
      const kinds = kindsOfId.get(id) ?? new Set<string>();
      kinds.add(kind);
      kindsOfId.set(id, kinds);
    }
  }
  for (const [id, kinds] of kindsOfId) {
    if (kinds.size > 1) {
      problems.push(
        `"${id}" is the id of a ${[...kinds].join(' and of a ')}: a name must not stand for two kinds of caller; rename one`,
      );
    }
  }
  return problems;
}

/**
 * Authenticates `Authorization: Bearer <token>` against static tokens, comparing with every
 * configured token in constant time. Throws `INVALID_OPTIONS` naming every problem of the tokens
 * (see {@link staticTokenProblems}).
 *
 * @example
 * const authenticate = staticTokenAuthenticator({ users: { [token]: 'u-1024' }, operators: { [opToken]: 'ada' } });
 */
export function staticTokenAuthenticator(tokens: StaticTokens): Authenticator {
  const problems = staticTokenProblems(tokens);
  if (problems.length > 0) {
    throw new IdentityError('INVALID_OPTIONS', {
      message: `The static tokens are not valid: ${problems.join('; ')}.`,
    });
  }
  const { lists } = currentLists(tokens);
  const entries = (Object.entries(KINDS) as [keyof typeof KINDS, PrincipalKind][]).flatMap(([list, kind]) =>
    Object.entries(lists[list] ?? {}).map(([token, id]) => ({ hash: digest(token), kind, id })),
  );
  return ({ authorization }) => {
    const token = bearerToken(authorization);
    if (token === undefined) return undefined;
    const hash = digest(token);
    let found: Principal | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(entry.hash, hash) && found === undefined) {
        found = { id: entry.id, kind: entry.kind, roles: [], via: [] };
      }
    }
    return found;
  };
}

/** Whether any static token is configured. */
export function hasStaticTokens(tokens: StaticTokens): boolean {
  return Object.values(tokens).some((list) => list && Object.keys(list).length > 0);
}
