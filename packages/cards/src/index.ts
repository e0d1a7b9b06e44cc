// check
export type { CardCheck, CardProblem, CardRule } from './check/card-problem.ts';
export { CARD_RULES } from './check/card-problem.ts';
export type { CheckCardOptions } from './check/check-card.ts';
export { checkCard } from './check/check-card.ts';
// convert
export { fromV03 } from './convert/from-v03.ts';
export type { CardShape, PublishedCardVersion } from './convert/render-card.ts';
export { CARD_SHAPES, CARD_VERSIONS, renderAgentCard } from './convert/render-card.ts';
export { toV03 } from './convert/to-v03.ts';
// diff
export type { CardChange, CardChangeKind, CardDiff } from './diff/card-change.ts';
export { diffCards } from './diff/diff-cards.ts';
// errors
export type { CardsErrorCode, CardsErrorParty } from './errors.ts';
export { CARDS_ERRORS, CardsError, isCardsError } from './errors.ts';
// card JSON
export type { CardVersion, CardWarning, ConvertedCard, JsonObject } from './json/card-json.ts';
export { detectCardVersion } from './json/card-json.ts';
// verify
export type { CardVerification, VerifyCardOptions, VerifyCheck } from './verify/verify-card.ts';
export { verifyCard } from './verify/verify-card.ts';
