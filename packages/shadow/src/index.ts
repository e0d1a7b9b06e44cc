// Shadow mode: a candidate beside the live agent (the tap, the copy stream, the shadow's worker), pair
// records and their comparison, the report.
export type { JudgePairOptions } from './answer-judge.ts';
export { judgePair } from './answer-judge.ts';
export type { PairComparison, ShadowViolation } from './compare-pair.ts';
export { comparePair, pairDifferences } from './compare-pair.ts';
export type { ShadowAgentOptions, ShadowCandidate, ShadowProposal } from './shadow-agent.ts';
export { NOT_RUN_IN_SHADOW, shadowAgent } from './shadow-agent.ts';
export { ShadowCopyStream } from './shadow-copy-stream.ts';
export type { ShadowPairStoreOptions } from './shadow-pair-store.ts';
export { ShadowPairStore, shadowPrefix } from './shadow-pair-store.ts';
export { ShadowCopy, ShadowJudgement, ShadowPair, ShadowSide, ShadowToolCall } from './shadow-records.ts';
export type { ShadowReport } from './shadow-report.ts';
export { shadowReport } from './shadow-report.ts';
export { inShadowShare } from './shadow-share.ts';
export type { ShadowTapOptions } from './shadow-tap.ts';
export { ShadowTap } from './shadow-tap.ts';
export type { ShadowWorker, ShadowWorkerOptions } from './shadow-worker.ts';
export { startShadowWorker } from './shadow-worker.ts';
