import { AgentCard } from '@a2a-js/sdk';
import { CardsError } from '../errors.ts';
import { type ConvertedCard, isObject } from '../json/card-json.ts';
import { toV03 } from './to-v03.ts';

/** The card shapes Switchboard publishes, by A2A protocol version (Major.Minor). */
export const CARD_VERSIONS = ['1.0', '0.3'] as const;

/** A card shape Switchboard publishes. */
export type PublishedCardVersion = (typeof CARD_VERSIONS)[number];

/**
 * The JSON a reader of one protocol version gets for a card: `1.0` is the ProtoJSON of the card
 * (`AgentCard.toJSON`, never `JSON.stringify` of the SDK object), `0.3` is that translated by
 * {@link toV03}, with its warnings. The same function serves the well-known card and writes the
 * committed card files, so both always agree. Throws for `0.3` when no interface is left that a
 * v0.3 client could use.
 *
 * @example
 * const { card: v03, warnings } = renderAgentCard({ card, version: '0.3' });
 */
export function renderAgentCard({
  card,
  version,
}: {
  card: AgentCard;
  version: PublishedCardVersion;
}): ConvertedCard {
  const json = AgentCard.toJSON(card);
  if (!isObject(json)) {
    throw new CardsError('INVALID_OPTIONS', {
      message: 'card must be a v1.0 AgentCard, e.g. from buildAgentCard(...)',
    });
  }
  if (version === '1.0') return { card: json, warnings: [] };
  return toV03(json);
}
