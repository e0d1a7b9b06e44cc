// The caller's side: accept peers' cards, and turn their skills into tools that delegate over A2A.
export type { PeerCard } from '../card/accept-peer-card.ts';
export { acceptPeerCard, acceptPeerCards } from '../card/accept-peer-card.ts';
export type { PeerCardPolicy, PeerCardSignatures } from '../card/accept-signed-peer-cards.ts';
export { acceptSignedPeerCards, PEER_CARD_POLICIES } from '../card/accept-signed-peer-cards.ts';
export type { DelegateOutcome } from './delegation-result.ts';
export type { DelegationToolsOptions } from './delegation-tools.ts';
export { delegationTarget, delegationTools } from './delegation-tools.ts';
export type { LiveReplicas } from './replica-watch.ts';
export { reachesShadowsOnly, shadowPeerCard, shadowQueueAddress } from './shadow-peers.ts';
export type { SignedCallOptions } from './signed-calls.ts';
export { signedCallOptions, signQueuedRequests } from './signed-calls.ts';
