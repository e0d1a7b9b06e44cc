// Names of 0.2 kept for one release, each read as the name that replaced it (docs/migration.md).

/** The 0.2 name of `SWITCHBOARD_USER_TOKENS`: still read for one release, with a deprecation note. */
export const LEGACY_USER_TOKENS_VARIABLE = 'SWITCHBOARD_CUSTOMER_TOKENS';

/** The 0.2 name of `SWITCHBOARD_OIDC_USER_CLAIM`: still read for one release, with a deprecation note. */
export const LEGACY_OIDC_USER_CLAIM_VARIABLE = 'SWITCHBOARD_OIDC_CUSTOMER_CLAIM';

/** The fields of `ServiceConfig` renamed in 0.3, still set for one release. */
export interface LegacyServiceConfigFields {
  /** @deprecated Renamed `userTokens`; this alias goes in the next release. */
  customerTokens: Record<string, string>;
  /** @deprecated Renamed `userLimits`; this alias goes in the next release. */
  customerLimits: { requestsPerMinute: number; maxTasksInFlight: number; maxMessageBytes: number };
}

/** The renamed fields under their 0.2 names, for {@link LegacyServiceConfigFields}. */
export function legacyServiceConfigFields(
  userTokens: LegacyServiceConfigFields['customerTokens'],
  userLimits: LegacyServiceConfigFields['customerLimits'],
): LegacyServiceConfigFields {
  return { customerTokens: userTokens, customerLimits: userLimits };
}
