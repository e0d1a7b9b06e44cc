import { comparePair, type PairComparison } from './compare-pair.ts';
import type { ShadowPair } from './shadow-records.ts';

/** Agreement of shadows with their baselines over a set of pairs; see {@link shadowReport}. */
export interface ShadowReport {
  /** Pairs recorded (copies accepted). */
  pairs: number;
  /** Pairs with both sides in, compared. */
  compared: number;
  /**
   * Of the compared, the share (0 to 1) with the same trajectory, writes and answer text; `answersAgree`
   * counts a judge's "equivalent" too.
   */
  agreement: {
    trajectory: number;
    writes: number;
    answers: number;
    answersAgree: number;
    meanAnswerSimilarity: number;
  };
  /** Compared pairs whose answers differ in text and that a judge model has a verdict on. */
  judged: number;
  /** Compared against an operator's handling rather than the live run. */
  againstOperator: number;
  violations: { extraWrites: number; dangerous: number };
  /** The pairs worth a look, most violations first. */
  disagreements: PairComparison[];
}

/** Compares every complete pair and sums up how often the shadow agreed. */
export function shadowReport(pairs: readonly ShadowPair[]): ShadowReport {
  const compared = pairs.flatMap((pair) => comparePair(pair) ?? []);
  const share = (test: (c: PairComparison) => boolean) =>
    compared.length === 0 ? 0 : compared.filter(test).length / compared.length;
  const violations = compared.flatMap((c) => c.violations);
  return {
    pairs: pairs.length,
    compared: compared.length,
    agreement: {
      trajectory: share((c) => c.sameTrajectory),
      writes: share((c) => c.sameWrites),
      answers: share((c) => c.sameAnswer),
      answersAgree: share((c) => c.answersAgree),
      meanAnswerSimilarity:
        compared.length === 0
          ? 0
          : compared.reduce((sum, c) => sum + c.answerSimilarity, 0) / compared.length,
    },
    judged: compared.filter((c) => c.judgement !== undefined).length,
    againstOperator: compared.filter((c) => c.baseline === 'operator').length,
    violations: {
      extraWrites: violations.filter((v) => v.kind === 'extra-write').length,
      dangerous: violations.filter((v) => v.kind === 'dangerous').length,
    },
    disagreements: compared
      .filter((c) => c.disagrees)
      .sort((a, b) => b.violations.length - a.violations.length),
  };
}
