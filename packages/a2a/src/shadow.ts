// @switchboard/a2a/shadow is deprecated: shadow mode moved to their own packages
// (docs/migration.md lists every name's new home). These re-exports go in the next release.
export { shadowPeerCard, shadowQueueAddress } from '@switchboard/delegate';
export type {
  JudgePairOptions,
  PairComparison,
  ShadowAgentOptions,
  ShadowCandidate,
  ShadowPairStoreOptions,
  ShadowProposal,
  ShadowReport,
  ShadowTapOptions,
  ShadowViolation,
  ShadowWorker,
  ShadowWorkerOptions,
} from '@switchboard/shadow';
export {
  comparePair,
  inShadowShare,
  judgePair,
  NOT_RUN_IN_SHADOW,
  ShadowCopy,
  ShadowCopyStream,
  ShadowJudgement,
  ShadowPair,
  ShadowPairStore,
  ShadowSide,
  ShadowTap,
  ShadowToolCall,
  shadowAgent,
  shadowPrefix,
  shadowReport,
  startShadowWorker,
} from '@switchboard/shadow';
