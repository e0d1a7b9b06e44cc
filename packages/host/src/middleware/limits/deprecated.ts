// Names of 0.2 kept for one release, each read as the name that replaced it (docs/migration.md).

/** The 0.2 name of `HostLimits.users`: still read for one release. */
export const LEGACY_USER_LIMITS = 'customers';

/** The limits of end users under their 0.2 name, beside `users`. */
export interface LegacyHostLimits<Limits> {
  /** @deprecated Renamed `users`; read when `users` is not given, for one release. */
  customers?: Limits;
}
