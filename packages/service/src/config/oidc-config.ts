import type { ConfigProblem } from '@switchboard/config';
import { JwtAuthenticatorOptions } from '@switchboard/identity';
import { LEGACY_OIDC_USER_CLAIM_VARIABLE } from './deprecated.ts';

/** The variable of each identity provider option. */
const VARIABLES = {
  issuer: 'SWITCHBOARD_OIDC_ISSUER',
  audience: 'SWITCHBOARD_OIDC_AUDIENCE',
  jwksUrl: 'SWITCHBOARD_OIDC_JWKS_URL',
  userClaim: 'SWITCHBOARD_OIDC_USER_CLAIM',
  legacyUserClaim: LEGACY_OIDC_USER_CLAIM_VARIABLE,
  rolesClaim: 'SWITCHBOARD_OIDC_ROLES_CLAIM',
  operatorRole: 'SWITCHBOARD_OIDC_OPERATOR_ROLE',
  clockToleranceSec: 'SWITCHBOARD_OIDC_CLOCK_SKEW_S',
} as const;

/** The three an identity provider cannot be verified without. */
const REQUIRED = ['issuer', 'audience', 'jwksUrl'] as const;

/**
 * The identity provider whose bearer JWTs a service accepts, from `SWITCHBOARD_OIDC_*`: none when
 * no such variable is set. The issuer, the audience (several: comma-separated) and the JWKS URL go
 * together; the claims, the operator role and the clock skew (seconds) are optional. Each value is
 * checked as `jwtAuthenticator` checks it, and every problem names its variable.
 *
 * @example
 * readIdentityProvider({
 *   SWITCHBOARD_OIDC_ISSUER: 'https://login.example.com/realms/acme',
 *   SWITCHBOARD_OIDC_AUDIENCE: 'switchboard',
 *   SWITCHBOARD_OIDC_JWKS_URL: 'https://login.example.com/realms/acme/protocol/openid-connect/certs',
 *   SWITCHBOARD_OIDC_ROLES_CLAIM: 'realm_access.roles',
 * });
 */
export function readIdentityProvider(
  env: NodeJS.ProcessEnv,
): { config: JwtAuthenticatorOptions | undefined; deprecations: string[] } | { problems: ConfigProblem[] } {
  const read = (option: keyof typeof VARIABLES) => env[VARIABLES[option]]?.trim() || undefined;
  const set = (Object.keys(VARIABLES) as (keyof typeof VARIABLES)[]).filter((option) => read(option));
  if (set.length === 0) return { config: undefined, deprecations: [] };
  const legacyClaim = read('legacyUserClaim');
  const userClaim = read('userClaim');
  if (legacyClaim !== undefined && userClaim !== undefined && legacyClaim !== userClaim) {
    return {
      problems: [
        {
          variable: VARIABLES.legacyUserClaim,
          message: `is the deprecated name of ${VARIABLES.userClaim} and both are set, to different claims; keep only ${VARIABLES.userClaim}`,
        },
      ],
    };
  }
  const missing = REQUIRED.filter((option) => !read(option));
  if (missing.length > 0) {
    const given = set.map((option) => VARIABLES[option]).join(', ');
    return {
      problems: missing.map((option) => ({
        variable: VARIABLES[option],
        message: `is required with ${given}: an identity provider needs ${REQUIRED.map((name) => VARIABLES[name]).join(', ')} together (or unset them all)`,
      })),
    };
  }
  const audiences = (read('audience') ?? '')
    .split(',')
    .map((audience) => audience.trim())
    .filter(Boolean);
  const skew = read('clockToleranceSec');
  const parsed = JwtAuthenticatorOptions.safeParse({
    issuer: read('issuer'),
    audience: audiences.length === 1 ? audiences[0] : audiences,
    jwksUrl: read('jwksUrl'),
    userClaim: userClaim ?? legacyClaim,
    rolesClaim: read('rolesClaim'),
    operatorRole: read('operatorRole'),
    clockToleranceSec: skew === undefined ? undefined : Number(skew),
  });
  const deprecations =
    legacyClaim === undefined
      ? []
      : [
          `${VARIABLES.legacyUserClaim} is deprecated and read for one more release: rename it ${VARIABLES.userClaim}`,
        ];
  if (parsed.success) return { config: parsed.data, deprecations };
  return {
    problems: parsed.error.issues.map((issue) => ({
      variable:
        issue.path[0] === 'userClaim'
          ? legacyClaim !== undefined && userClaim === undefined
            ? VARIABLES.legacyUserClaim
            : VARIABLES.userClaim
          : (VARIABLES[issue.path[0] as keyof typeof VARIABLES] ?? 'SWITCHBOARD_OIDC_*'),
      message: issue.message,
    })),
  };
}
