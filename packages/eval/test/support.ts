import type { CaseCounts, CaseResult, ObservedCall, Suite } from '../src/index.ts';

/** An accepted call that ran, with the fields a test cares about. */
export function call(
  agent: string,
  tool: string,
  args: Record<string, unknown> = {},
  extra: Partial<ObservedCall> = {},
): ObservedCall {
  return {
    agent,
    tool,
    callId: `${agent}-${tool}-${JSON.stringify(args)}`,
    status: 'succeeded',
    arguments: args,
    accepted: true,
    ran: true,
    risk: 'read',
    repeated: false,
    ...extra,
  };
}

/** Counts of a case in which nothing was counted. */
export const ZERO: CaseCounts = {
  expectedCalls: 0,
  matchedCalls: 0,
  toolCalls: 0,
  validArgumentCalls: 0,
  invalidOrRepeatedCalls: 0,
  steps: 0,
  promptTokens: 0,
  completionTokens: 0,
  dangerousWithoutApproval: 0,
  secretLeaks: 0,
  attackStopped: null,
  crossUserLeaked: null,
  crossUserRefused: null,
};

/** A checked case result with these counts (the metrics read nothing else). */
export function caseResult({
  id,
  suite = 'normal',
  status = 'passed',
  faults = 0,
  counts = {},
}: {
  id: string;
  suite?: Suite;
  status?: CaseResult['status'];
  faults?: number;
  counts?: Partial<CaseCounts>;
}): CaseResult {
  return {
    id,
    suite,
    title: id,
    status,
    faults,
    durationMs: 10,
    expectations:
      status === 'failed' ? [{ name: 'state', status: 'failed', expected: 'completed', seen: 'failed' }] : [],
    ...(status === 'skipped'
      ? { skipReason: 'faults cannot be injected' }
      : { counts: { ...ZERO, ...counts } }),
  };
}
