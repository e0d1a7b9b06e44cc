import type { ConfigProblem } from '@switchboard/config';
import { UNVERSIONED_CARD_SHAPES, type UnversionedCardShape } from '@switchboard/host/http';

/** How a service publishes its agent card. */
export interface CardConfig {
  /**
   * What a card request without `A2A-Version` gets (`SWITCHBOARD_CARD_UNVERSIONED`, default
   * `hybrid`): the v1.0 card with the v0.3 fields added, the pure `1.0` card, or the pure `0.3` one.
   */
  unversioned: UnversionedCardShape;
  /**
   * Whether the card is signed with the service's key (`SWITCHBOARD_SIGN_CARD`, default true), so
   * peers that trust the key can tell it was not changed on the way (A2A §8.4).
   */
  sign: boolean;
}

const UNVERSIONED_VARIABLE = 'SWITCHBOARD_CARD_UNVERSIONED';
const SIGN_VARIABLE = 'SWITCHBOARD_SIGN_CARD';

/**
 * Reads `SWITCHBOARD_CARD_UNVERSIONED` (`hybrid`, `1.0` or `0.3`) and `SWITCHBOARD_SIGN_CARD`
 * (`true` or `false`), unset or empty meaning the defaults; or names what is wrong with them.
 */
export function readCardConfig(
  env: NodeJS.ProcessEnv,
): { ok: true; config: CardConfig } | { ok: false; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const unversioned = env[UNVERSIONED_VARIABLE]?.trim() || 'hybrid';
  if (!(UNVERSIONED_CARD_SHAPES as readonly string[]).includes(unversioned)) {
    problems.push({
      variable: UNVERSIONED_VARIABLE,
      message: `must be hybrid (the v1.0 card with the v0.3 fields, for v1.0 and v0.3 readers alike), 1.0 (when every reader is a strict v1.0 client) or 0.3, not "${unversioned}"`,
    });
  }
  const sign = (env[SIGN_VARIABLE]?.trim() || 'true').toLowerCase();
  if (sign !== 'true' && sign !== 'false') {
    problems.push({
      variable: SIGN_VARIABLE,
      message: `must be true (sign the agent card with SWITCHBOARD_SERVICE_KEY) or false, not "${env[SIGN_VARIABLE]?.trim()}"`,
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, config: { unversioned: unversioned as UnversionedCardShape, sign: sign === 'true' } };
}
