// The words eval files of 0.2 wrote for end users, still read for one release (docs/migration.md).
// Nothing here is written; each is mapped to the word that replaced it when a file is read.

/** The 0.2 tag of cases in which a user reaches for another user's data; counted as `cross-user`. */
export const LEGACY_CROSS_USER_TAG = 'cross-customer';

/** The 0.2 case field naming who asks, read as `user`. */
export const LEGACY_USER_FIELD = 'customer';

/** The 0.2 expectation read as `noCrossUserData`. */
export const LEGACY_NO_CROSS_USER_DATA = 'noCrossCustomerData';

/** The 0.2 names of report fields (a baseline written by 0.2), each read as its new name. */
export const LEGACY_REPORT_KEYS: Readonly<Record<string, string>> = {
  crossCustomerLeaked: 'crossUserLeaked',
  crossCustomerRefused: 'crossUserRefused',
  crossCustomerLeaks: 'crossUserLeaks',
  crossCustomerRefusals: 'crossUserRefusals',
  crossCustomerCases: 'crossUserCases',
  crossCustomer: 'crossUser',
  customer: 'user',
};

/**
 * A copy of `value` with each 0.2 key of {@link LEGACY_REPORT_KEYS} under its new name (the new
 * name wins when both are there); anything but a plain object as it is.
 */
export function renameLegacyKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const current = LEGACY_REPORT_KEYS[key];
    if (current === undefined) renamed[key] = item;
    else if (!(current in value)) renamed[current] = item;
  }
  return renamed;
}

/** The 0.2 name of the option that lists the users cases may name (`users`), still read for one release. */
export const LEGACY_USERS_OPTION = 'customers';
