import type { ExpectedCall, MatchMode } from '../case/eval-case.ts';
import type { ObservedCall } from '../run/observation.ts';
import { stableJson } from '../run/trajectory.ts';

/** How the made calls compared with the expected ones. */
export interface ToolMatch {
  /** Whether the expectation held in its mode. */
  ok: boolean;
  /** Expected calls that a distinct made call matched, order aside (the tool-selection numerator). */
  matched: number;
  /** What did not hold, in words. */
  problems: string[];
}

/** Whether a made call is the expected one: same tool, same agent if named, and the named arguments equal. */
export function callMatches({ expected, call }: { expected: ExpectedCall; call: ObservedCall }): boolean {
  if (expected.tool !== call.tool) return false;
  if (expected.agent && expected.agent !== call.agent) return false;
  if (!expected.arguments) return true;
  const actual = call.arguments;
  if (!actual || typeof actual !== 'object') return false;
  return Object.entries(expected.arguments).every(
    ([key, value]) => stableJson((actual as Record<string, unknown>)[key]) === stableJson(value),
  );
}

/** A maximum one-to-one matching of expected to made calls (augmenting paths; lists are short). */
function maximumMatching(
  expected: readonly ExpectedCall[],
  calls: readonly ObservedCall[],
): (number | undefined)[] {
  const owner: (number | undefined)[] = calls.map(() => undefined);
  const assign = (e: number, visited: Set<number>): boolean => {
    for (const [c, call] of calls.entries()) {
      if (visited.has(c) || !callMatches({ expected: expected[e] as ExpectedCall, call })) continue;
      visited.add(c);
      const previous = owner[c];
      if (previous === undefined || assign(previous, visited)) {
        owner[c] = e;
        return true;
      }
    }
    return false;
  };
  for (const e of expected.keys()) assign(e, new Set());
  const byExpected: (number | undefined)[] = expected.map(() => undefined);
  for (const [c, e] of owner.entries()) if (e !== undefined) byExpected[e] = c;
  return byExpected;
}

/** `orders/get_order {"orderId":"A20417"}`: a call as reports show it. */
export function describeCall(call: ObservedCall): string {
  const args = call.arguments === undefined ? '' : ` ${JSON.stringify(call.arguments)}`;
  const shown = args.length > 120 ? `${args.slice(0, 117)}…` : args;
  return `${call.agent}/${call.tool}${shown}`;
}

/** `get_order {"orderId":"A20417"}` (with `orders/` when the agent is named): an expected call. */
export function describeExpected(expected: ExpectedCall): string {
  return `${expected.agent ? `${expected.agent}/` : ''}${expected.tool}${expected.arguments ? ` ${JSON.stringify(expected.arguments)}` : ''}`;
}

const SUPERVISOR = 'supervisor';

/** Whether an expected call is the supervisor's (a delegation), judged by its agent or the calls seen. */
function isSupervisorCall(expected: ExpectedCall, calls: readonly ObservedCall[]): boolean {
  if (expected.agent) return expected.agent === SUPERVISOR;
  return calls.some((call) => call.tool === expected.tool && call.agent === SUPERVISOR);
}

/**
 * Compares the made calls (accepted: known, permitted, valid arguments) with the expected ones:
 * - `subset`: every expected call is matched by a distinct made call; other calls are allowed;
 * - `exact`: that, and no other call was made at the same level: the workers' calls when every
 *   expected call is a worker tool, the supervisor's delegations when every one is a delegation, all
 *   calls when the list mixes both;
 * - `in-order`: the expected calls are matched in this order (others may come in between).
 */
export function matchTools({
  mode,
  expected,
  calls,
}: {
  mode: MatchMode;
  expected: readonly ExpectedCall[];
  calls: readonly ObservedCall[];
}): ToolMatch {
  const made = calls.filter((call) => call.accepted);
  const pairing = maximumMatching(expected, made);
  const matched = pairing.filter((index) => index !== undefined).length;
  const problems: string[] = [];
  const missing = expected.filter((_, index) => pairing[index] === undefined);
  if (missing.length > 0) problems.push(`not called: ${missing.map(describeExpected).join('; ')}`);
  if (mode === 'exact') {
    const levels = new Set(expected.map((call) => isSupervisorCall(call, made)));
    const scope = made.filter((call) => levels.has(call.agent === SUPERVISOR));
    const used = new Set(pairing.filter((index) => index !== undefined).map((index) => made[index]));
    const extra = scope.filter((call) => !used.has(call));
    if (extra.length > 0) problems.push(`also called: ${extra.map(describeCall).join('; ')}`);
  }
  if (mode === 'in-order' && missing.length === 0) {
    let next = 0;
    for (const call of made)
      if (next < expected.length && callMatches({ expected: expected[next] as ExpectedCall, call })) next++;
    if (next < expected.length) {
      const after = next > 0 ? ` after ${describeExpected(expected[next - 1] as ExpectedCall)}` : '';
      problems.push(
        `out of order: ${describeExpected(expected[next] as ExpectedCall)} was not called${after}`,
      );
    }
  }
  return { ok: problems.length === 0, matched, problems };
}
