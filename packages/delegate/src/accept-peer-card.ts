import { AgentCard } from '@a2a-js/sdk';
import { type Logger, stderrLogger } from '@switchboard/agent';
import { type CardVersion, checkCard, fromV03, isCardsError, type JsonObject } from '@switchboard/cards';

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A peer's card, accepted (as a v1.0 SDK card; `signedBy` the kid of the trusted key that signed it,
 * when signatures were checked) or refused (with the reason that was logged).
 */
export type PeerCard =
  | { accepted: true; source: string; version: CardVersion; card: AgentCard; signedBy?: string }
  | { accepted: false; source: string; reason: string };

/**
 * Accepts a peer agent's card of either version: a v0.3 or hybrid card is converted to v1.0 with
 * `fromV03`; a card with errors is refused with one log line naming the agent and the problem.
 * Never throws, so one bad card cannot take down a caller that reads many.
 *
 * @example
 * const peers = acceptPeerCards({ cards: fetched, logger }).filter((peer) => peer.accepted);
 */
export function acceptPeerCard({
  json,
  source,
  logger = stderrLogger(),
}: {
  json: unknown;
  /** Where the card came from (a URL, a registry key), for the log line. */
  source: string;
  logger?: Pick<Logger, 'warn'>;
}): PeerCard {
  const name = isJsonObject(json) && typeof json.name === 'string' && json.name ? json.name : source;
  const refuse = (reason: string, problems: readonly unknown[]): PeerCard => {
    logger.warn({ agent: name, source, problems }, `refusing the card of agent "${name}": ${reason}`);
    return { accepted: false, source, reason };
  };
  const check = checkCard(json);
  const errors = check.problems.filter((problem) => problem.severity === 'error');
  if (!check.valid || !isJsonObject(json)) {
    const [first] = errors;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return refuse(`${first?.message ?? 'not an agent card'}${more}`, errors.slice(0, 5));
  }
  let converted: JsonObject;
  try {
    converted = fromV03(json).card;
  } catch (error) {
    // A valid card the converter cannot carry over whole (e.g. a scheme it cannot translate).
    if (!isCardsError(error)) throw error;
    return refuse(error.message, []);
  }
  return { accepted: true, source, version: check.version, card: AgentCard.fromJSON(converted) };
}

/** {@link acceptPeerCard} for many cards at once; the refused ones are logged and kept out. */
export function acceptPeerCards({
  cards,
  logger,
}: {
  cards: readonly { json: unknown; source: string }[];
  logger?: Pick<Logger, 'warn'>;
}): PeerCard[] {
  return cards.map(({ json, source }) => acceptPeerCard({ json, source, ...(logger ? { logger } : {}) }));
}
