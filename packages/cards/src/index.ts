// check
export type { CardCheck, CardProblem, CardReading, CardRule } from './check/card-problem.ts';
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
export { cardVersionLabel, detectCardVersion } from './json/card-json.ts';
// sign
export type { CardCanonicalization } from './sign/card-canonical.ts';
export { CARD_CANONICALIZATIONS } from './sign/card-canonical.ts';
export type { CardKeys, TrustedCardKeysSource } from './sign/card-keys.ts';
export { trustedCardKeys } from './sign/card-keys.ts';
export type { CardSigner, CardSignerOptions } from './sign/sign-card.ts';
export { cardSigner } from './sign/sign-card.ts';
export type {
  CardSignatureProblem,
  CardSignatureResult,
  SignatureFinding,
} from './sign/verify-card-signature.ts';
export { checkCardSignatures, verifyCardSignature } from './sign/verify-card-signature.ts';
// verify
export { signatureCheck } from './verify/signature-check.ts';
export type { CardVerification, VerifyCardOptions, VerifyCheck } from './verify/verify-card.ts';
export { verifyCard } from './verify/verify-card.ts';
