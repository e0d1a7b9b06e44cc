import type { AgentCard } from '@a2a-js/sdk';
import { BULLMQ_BINDING, parseQueueUrl, type QueueAddress, queueUrl } from '@switchboard/a2a-bullmq';
import { DelegateError } from './errors.ts';

const SHADOW_SUFFIX = '.shadow';

/**
 * The queue an agent's shadow is served on: the live queue's name with `.shadow`, under the same
 * prefix (so the same Redis Cluster slot), e.g. `a2a.orders` → `a2a.orders.shadow`.
 */
export function shadowQueueAddress(live: QueueAddress): QueueAddress {
  return { queue: `${live.queue}${SHADOW_SUFFIX}`, prefix: live.prefix };
}

/**
 * A peer's card as a shadow supervisor must see it: only its queue interface, pointed at the peer's
 * shadow queue. Delegation tools built from it (`delegationTools({ peers: cards.map(shadowPeerCard) })`)
 * reach the workers' shadows and never a live worker, whatever else the card names. Throws when the
 * card has no queue interface: a shadow cannot delegate to a peer without a shadow queue.
 */
export function shadowPeerCard(card: AgentCard): AgentCard {
  const queues = card.supportedInterfaces.filter((iface) => iface.protocolBinding === BULLMQ_BINDING);
  if (queues.length === 0) {
    throw new DelegateError('INVALID_OPTIONS', {
      message: `The card of ${card.name} names no queue interface (${BULLMQ_BINDING}), so a shadow has no shadow queue to delegate to. Serve ${card.name} over a queue and run its shadow there.`,
    });
  }
  return {
    ...card,
    supportedInterfaces: queues.map((iface) => ({
      ...iface,
      url: queueUrl(shadowQueueAddress(parseQueueUrl(iface.url))),
    })),
  };
}

/** Whether every interface of a card reaches a shadow (a queue named by `shadowQueueAddress`). */
export function reachesShadowsOnly(card: AgentCard): boolean {
  return (
    card.supportedInterfaces.length > 0 &&
    card.supportedInterfaces.every(
      (iface) =>
        iface.protocolBinding === BULLMQ_BINDING && parseQueueUrl(iface.url).queue.endsWith(SHADOW_SUFFIX),
    )
  );
}
