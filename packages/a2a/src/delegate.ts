// @switchboard/a2a/delegate is deprecated: the caller's side moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export type {
  DelegateOutcome,
  DelegationToolsOptions,
  LiveReplicas,
  PeerCard,
  PeerCardPolicy,
  PeerCardSignatures,
  SignedCallOptions,
} from '@switchboard/delegate';
export {
  acceptPeerCard,
  acceptPeerCards,
  acceptSignedPeerCards,
  delegationTarget,
  delegationTools,
  PEER_CARD_POLICIES,
  reachesShadowsOnly,
  shadowPeerCard,
  shadowQueueAddress,
  signedCallOptions,
  signQueuedRequests,
} from '@switchboard/delegate';
