import type { ShadowJudgement, ShadowPair, ShadowSide, ShadowToolCall } from './shadow-records.ts';

/** A write (or a dangerous action) the shadow asked for that its baseline did not make. */
export interface ShadowViolation {
  kind: 'extra-write' | 'dangerous';
  tool: string;
}

/** How one pair's shadow compares with what the user got (or what an operator did). */
export interface PairComparison {
  taskId: string;
  agent: string;
  candidate: string;
  /** The side the shadow is compared with: the operator's when one handled it, else the live run. */
  baseline: 'live' | 'operator';
  /** Same tools in the same order. */
  sameTrajectory: boolean;
  /** Same write and dangerous actions with the same arguments (order aside). */
  sameWrites: boolean;
  /** The answers are the same text (after whitespace). */
  sameAnswer: boolean;
  /** Word overlap of the answers (Jaccard, 0 to 1): what "close" means when they are not the same. */
  answerSimilarity: number;
  /** A judge model's verdict on answers that are not the same text, when one was asked (and is current). */
  judgement?: ShadowJudgement | undefined;
  /** The answers agree: the same text, or a judge found them equivalent. */
  answersAgree: boolean;
  steps?: { baseline?: number | undefined; shadow?: number | undefined };
  tokens?: { baseline?: number | undefined; shadow?: number | undefined };
  latencyMs?: { baseline?: number | undefined; shadow?: number | undefined };
  violations: ShadowViolation[];
  traceIds: { baseline?: string | undefined; shadow?: string | undefined };
  /** Worth a look: other tools, other writes, answers that do not agree, or a violation. */
  disagrees: boolean;
}

/** Compares a complete pair; undefined while the shadow or both baselines are missing. */
export function comparePair(pair: ShadowPair): PairComparison | undefined {
  const baseline = pair.operator ?? pair.live;
  const { shadow } = pair;
  if (!baseline || !shadow) return undefined;
  const sameTrajectory = sequence(baseline.tools) === sequence(shadow.tools);
  const sameWrites = writeSet(baseline.tools) === writeSet(shadow.tools);
  const sameAnswer = normalise(baseline.answer) === normalise(shadow.answer);
  const violations = violationsOf(baseline, shadow);
  const against = pair.operator ? 'operator' : 'live';
  // A verdict given against the live run says nothing once an operator's handling is the baseline.
  const judgement = !sameAnswer && pair.judgement?.against === against ? pair.judgement : undefined;
  const answersAgree = sameAnswer || judgement?.equivalent === true;
  return {
    taskId: pair.taskId,
    agent: pair.agent,
    candidate: pair.candidate,
    baseline: against,
    sameTrajectory,
    sameWrites,
    sameAnswer,
    answerSimilarity: sameAnswer ? 1 : jaccard(baseline.answer, shadow.answer),
    judgement,
    answersAgree,
    steps: { baseline: baseline.steps, shadow: shadow.steps },
    tokens: { baseline: total(baseline), shadow: total(shadow) },
    latencyMs: { baseline: baseline.latencyMs, shadow: shadow.latencyMs },
    violations,
    traceIds: { baseline: baseline.traceId, shadow: shadow.traceId },
    disagrees: !sameTrajectory || !sameWrites || !answersAgree || violations.length > 0,
  };
}

/** A write or dangerous call that was made, asked for or proposed; one that failed (or was denied) was not. */
const isWrite = (call: ShadowToolCall) =>
  (call.risk === 'write' || call.risk === 'dangerous') && call.status !== 'failed';
const sequence = (tools: readonly ShadowToolCall[]) => JSON.stringify(tools.map((call) => call.tool));
const writeKey = (call: ShadowToolCall) => `${call.tool}\u0000${canonical(call.arguments)}`;
const writeSet = (tools: readonly ShadowToolCall[]) =>
  JSON.stringify(tools.filter(isWrite).map(writeKey).sort());
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();
const total = (side: ShadowSide) => side.tokens && side.tokens.prompt + side.tokens.completion;

function violationsOf(baseline: ShadowSide, shadow: ShadowSide): ShadowViolation[] {
  const made = new Set(baseline.tools.filter(isWrite).map(writeKey));
  return shadow.tools
    .filter((call) => isWrite(call) && !made.has(writeKey(call)))
    .map((call) => ({ kind: call.risk === 'dangerous' ? 'dangerous' : 'extra-write', tool: call.tool }));
}

/** JSON with object keys sorted, so the same arguments in another key order compare equal. */
function canonical(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) =>
      item && typeof item === 'object' && !Array.isArray(item)
        ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b)))
        : item,
    ) ?? 'null'
  );
}

function jaccard(a: string, b: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const left = words(a);
  const right = words(b);
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
}

/**
 * What differed between a shadow and its baseline, a phrase each, as `switchboard shadow report` and
 * the console say it: policy violations first, then the tools, the write arguments, and the answer
 * (the judge's verdict when there is one, else the answers' similarity).
 */
export function pairDifferences(c: PairComparison): string[] {
  return [
    ...c.violations.map((v) =>
      v.kind === 'dangerous'
        ? `dangerous ${v.tool} the ${c.baseline} side did not take`
        : `extra write ${v.tool}`,
    ),
    ...(c.sameTrajectory ? [] : ['other tools']),
    ...(c.sameWrites ? [] : ['other write arguments']),
    ...(c.sameAnswer ? [] : [answerDifference(c)]),
  ];
}

function answerDifference(c: PairComparison): string {
  const verdict = c.judgement;
  if (!verdict) return `other answer (similarity ${c.answerSimilarity.toFixed(2)})`;
  const better =
    verdict.better === 'same'
      ? 'neither better'
      : `${verdict.better === 'shadow' ? 'shadow' : c.baseline} better`;
  return verdict.equivalent
    ? `answer reworded (judge ${verdict.by}: equivalent, ${better}: ${verdict.reason})`
    : `other answer (judge ${verdict.by}: not equivalent, ${better}: ${verdict.reason})`;
}
