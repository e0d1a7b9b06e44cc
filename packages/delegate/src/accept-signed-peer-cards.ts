import { type Logger, stderrLogger } from '@switchboard/agent';
import { type CardKeys, type CardSignatureResult, verifyCardSignature } from '@switchboard/cards';
import { acceptPeerCard, type PeerCard } from './accept-peer-card.ts';

/** What a peer's card must carry: any card (`any`), or one signed by a trusted key (`signed`). */
export const PEER_CARD_POLICIES = ['any', 'signed'] as const;

/** See {@link PEER_CARD_POLICIES}. */
export type PeerCardPolicy = (typeof PEER_CARD_POLICIES)[number];

/** How peers' card signatures are checked (A2A §8.4). */
export interface PeerCardSignatures {
  /** The keys the user trusts to sign cards; never a key the card points to. */
  keys: CardKeys;
  /**
   * `any` (default): a card that is unsigned or not signed by a trusted key is accepted, with a
   * warning; `signed`: it is refused.
   */
  policy?: PeerCardPolicy;
  /**
   * Whether a key may sign this agent's card (default: any trusted key may), e.g. only the key of
   * the service of that name: `(agent, kid) => serviceOfKeyId(kid) === agent`.
   */
  mayCardSign?: (agent: string, kid: string) => boolean;
}

const nameOf = (json: unknown, source: string) => {
  const name = typeof json === 'object' && json !== null ? (json as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name ? name : source;
};

/** Why a card's signature does not count, or undefined when it does. */
function signatureProblem(
  result: CardSignatureResult,
  agent: string,
  mayCardSign: PeerCardSignatures['mayCardSign'],
): string | undefined {
  if (result.status === 'unsigned') return 'the card is unsigned';
  if (result.status === 'invalid') return `its signature is not valid: ${result.message}`;
  if (mayCardSign && !mayCardSign(agent, result.kid)) {
    return `it is signed by "${result.kid}", a trusted key, but not one allowed to sign the card of "${agent}"`;
  }
  return undefined;
}

/**
 * {@link acceptPeerCard} for many cards, after checking each one's signature against the keys the
 * user trusts: with policy `signed`, a card that is unsigned, wrongly signed or signed by a key not
 * allowed for it is refused with exactly one log line naming the agent and the reason; with `any`,
 * it is accepted (if it checks) after a warning saying the same. An accepted card says who signed
 * it (`signedBy`). Never throws.
 *
 * @example
 * const peers = await acceptSignedPeerCards({
 *   cards, signatures: { keys: await trustedCardKeys({ file }), policy: 'signed' }, logger,
 * });
 */
export async function acceptSignedPeerCards({
  cards,
  signatures: { keys, policy = 'any', mayCardSign },
  logger = stderrLogger(),
}: {
  cards: readonly { json: unknown; source: string }[];
  signatures: PeerCardSignatures;
  logger?: Pick<Logger, 'warn'>;
}): Promise<PeerCard[]> {
  return Promise.all(
    cards.map(async ({ json, source }): Promise<PeerCard> => {
      const agent = nameOf(json, source);
      const result = await verifyCardSignature({ card: json, keys });
      const problem = signatureProblem(result, agent, mayCardSign);
      const fields = {
        agent,
        source,
        signature: result.status,
        ...('reason' in result ? { reason: result.reason } : {}),
      };
      if (problem && policy === 'signed') {
        logger.warn(fields, `refusing the card of agent "${agent}": ${problem}`);
        return { accepted: false, source, reason: problem };
      }
      if (problem) {
        logger.warn(
          fields,
          `the card of agent "${agent}" is accepted though ${problem} (the policy 'signed' refuses such cards)`,
        );
      }
      const peer = acceptPeerCard({ json, source, logger });
      return peer.accepted && !problem && result.status === 'valid'
        ? { ...peer, signedBy: result.kid }
        : peer;
    }),
  );
}
