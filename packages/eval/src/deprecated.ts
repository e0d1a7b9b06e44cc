// Names of 0.2 kept for one release, each an alias of the name that says its role (docs/migration.md).
import { LEGACY_CROSS_USER_TAG } from './legacy-vocabulary.ts';
import { CrossUserLeak, UserDatum, UserFootprint } from './run/cross-user.ts';
import { usersWithoutToken } from './run/deployment-target.ts';

/**
 * @deprecated Renamed `CROSS_USER_TAG` (`cross-user`); cases tagged with this 0.2 tag still count as
 * cross-user cases. This alias goes in the next release.
 */
export const CROSS_CUSTOMER_TAG: typeof LEGACY_CROSS_USER_TAG = LEGACY_CROSS_USER_TAG;

/** @deprecated Renamed `CrossUserLeak` (its `customer` field is `user`); this alias goes in the next release. */
export const CrossCustomerLeak = CrossUserLeak;
/** @deprecated Renamed `CrossUserLeak`; this alias goes in the next release. */
export type CrossCustomerLeak = CrossUserLeak;

/** @deprecated Renamed `UserDatum`; this alias goes in the next release. */
export const CustomerDatum = UserDatum;
/** @deprecated Renamed `UserDatum`; this alias goes in the next release. */
export type CustomerDatum = UserDatum;

/** @deprecated Renamed `UserFootprint`; this alias goes in the next release. */
export const CustomerFootprint = UserFootprint;
/** @deprecated Renamed `UserFootprint`; this alias goes in the next release. */
export type CustomerFootprint = UserFootprint;

/** @deprecated Renamed `usersWithoutToken`; this alias goes in the next release. */
export const customersWithoutToken = usersWithoutToken;
