import { z } from 'zod';
import { LEGACY_CROSS_USER_TAG, LEGACY_NO_CROSS_USER_DATA, LEGACY_USER_FIELD } from '../legacy-vocabulary.ts';

/** The suites, one folder each under the cases directory (`evals/<suite>/<id>.yaml`). */
export const SUITES = ['normal', 'boundary', 'malicious', 'failure'] as const;

/** A suite name: `normal`, `boundary`, `malicious` or `failure`. */
export const Suite = z.enum(SUITES, { error: 'must be normal, boundary, malicious or failure' });
export type Suite = z.infer<typeof Suite>;

/** A task state as the case names it: the supervisor task's state after the last turn. */
export const TaskStateName = z.enum(['completed', 'input-required', 'failed', 'rejected', 'canceled'], {
  error: 'must be completed, input-required, failed, rejected or canceled',
});
export type TaskStateName = z.infer<typeof TaskStateName>;

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const text = z.string({ error: 'must be a text' }).trim().min(1, 'must not be empty');
const reason = z.string({ error: 'must be a text' }).trim().min(1, 'must not be empty').max(500).optional();

/** A turn: the user says something. */
export const UserTurn = z.strictObject({ user: text });
export type UserTurn = z.infer<typeof UserTurn>;

/** A turn: an operator approves every pending approval of the conversation (the admin API). */
export const ApproveTurn = z.strictObject({ approve: z.literal('all'), reason });
export type ApproveTurn = z.infer<typeof ApproveTurn>;

/** A turn: an operator denies every pending approval of the conversation. */
export const DenyTurn = z.strictObject({ deny: z.literal('all'), reason });
export type DenyTurn = z.infer<typeof DenyTurn>;

/** One turn of a case's conversation. */
export const Turn = z.union([UserTurn, ApproveTurn, DenyTurn], {
  error:
    'must be { user: "<text>" }, { approve: all } or { deny: all } (approve and deny take an optional reason)',
});
export type Turn = z.infer<typeof Turn>;

/**
 * What a fault does to a worker tool. `timeout`: the handler never resolves, so the runtime's tool
 * timeout fires; `error`: it throws; `malformed`: it returns data of the wrong shape.
 */
export const FaultKind = z.enum(['timeout', 'error', 'malformed'], {
  error: 'must be timeout, error or malformed',
});
export type FaultKind = z.infer<typeof FaultKind>;

/** A fault injected into one worker tool for one case (in process only). */
export const Fault = z.strictObject({
  agent: text,
  tool: text,
  kind: FaultKind,
  /** Only the first `times` calls fail (default: every call). */
  times: z.number({ error: 'must be a whole number of at least 1' }).int().min(1).optional(),
});
export type Fault = z.infer<typeof Fault>;

/** A tool call a case expects. */
export const ExpectedCall = z.strictObject({
  /** A worker tool (`get_order`) or a supervisor delegation tool (`orders_order_status`). */
  tool: text,
  agent: text.optional(),
  /** These keys must equal the call's validated arguments (others may be present). */
  arguments: z
    .record(z.string(), z.unknown(), { error: 'must be a map of argument names to values' })
    .optional(),
});
export type ExpectedCall = z.infer<typeof ExpectedCall>;

/**
 * How expected calls are matched. `subset`: these calls happen, others are allowed; `exact`:
 * exactly these calls happen (any order); `in-order`: these happen in this order, others may be
 * interleaved.
 */
export const MatchMode = z.enum(['subset', 'exact', 'in-order'], {
  error: 'must be subset, exact or in-order',
});
export type MatchMode = z.infer<typeof MatchMode>;

/** What a case expects; every field is optional. */
export const Expectations = z.strictObject({
  tools: z
    .strictObject({
      match: MatchMode.default('subset'),
      calls: z
        .array(ExpectedCall, { error: 'must be a list of calls' })
        .min(1, 'must list at least one call'),
    })
    .optional(),
  /** These tools must not have run (their handler never invoked). */
  notTools: z.array(text, { error: 'must be a list of tool names' }).optional(),
  answer: z
    .strictObject({
      /** Case-insensitive substrings the final answer must hold. */
      contains: z.array(text, { error: 'must be a list of texts' }).optional(),
      /** Case-insensitive substrings it must not hold. */
      notContains: z.array(text, { error: 'must be a list of texts' }).optional(),
    })
    .optional(),
  state: TaskStateName.optional(),
  /** Model calls across all agents, at most. */
  maxSteps: z.number({ error: 'must be a whole number of at least 1' }).int().min(1).optional(),
  /** No dangerous tool's handler ran unless an operator approved it in this case. */
  noDangerousWithoutApproval: z.boolean({ error: 'must be true or false' }).optional(),
  /** The answers hold none of the system's secrets. */
  noSecrets: z.boolean({ error: 'must be true or false' }).optional(),
  /**
   * Nothing of another user reached the asker or the supervisor (an answer, a tool's result, a
   * delegation's result), and no write or dangerous tool acted on another user's record.
   */
  noCrossUserData: z.boolean({ error: 'must be true or false' }).optional(),
  /** @deprecated Renamed `noCrossUserData`; read as it when it is not given, for one release. */
  [LEGACY_NO_CROSS_USER_DATA]: z.boolean({ error: 'must be true or false' }).optional(),
});
export type Expectations = z.infer<typeof Expectations>;

/**
 * The tag of the cases in which a user reaches for another user's data (counted by
 * `crossUserRefusals`); the tag 0.2 wrote for them counts too (see {@link isCrossUserCase}).
 */
export const CROSS_USER_TAG = 'cross-user';

/** Whether a case is tagged as one in which a user reaches for another user's data. */
export function isCrossUserCase(evalCase: Pick<EvalCase, 'tags'>): boolean {
  return evalCase.tags?.some((tag) => tag === CROSS_USER_TAG || tag === LEGACY_CROSS_USER_TAG) ?? false;
}

/**
 * Who asks in a case: one of the team's users (`user: traveller-1`), or an operator (`as: operator`).
 * Every case names one; the runner sends the case with that caller's token.
 */
export type Caller = { kind: 'user'; id: string } | { kind: 'operator' };

/**
 * One eval case, as written in `evals/<suite>/<id>.yaml` (or `.json`): a conversation with the
 * supervisor, optional faults injected into worker tools, and what must hold afterwards.
 *
 * @example
 * id: normal-order-two-step
 * suite: normal
 * title: Two-step order question
 * user: traveller-1
 * turns:
 *   - user: "Where is my booking B-2041 and when does it leave?"
 * expect:
 *   tools: { match: in-order, calls: [{ tool: get_booking }, { tool: departure_time }] }
 *   answer: { contains: ["2026-12-01"] }
 *   state: completed
 */
export const EvalCase = z.strictObject({
  /** Unique across all suites, kebab-case; the file is named `<id>.yaml`. */
  id: z
    .string({ error: 'must be a text' })
    .regex(KEBAB, 'must be kebab-case (lower-case words joined by "-"), e.g. normal-order-two-step'),
  /** Must equal the folder the file is in. */
  suite: Suite,
  title: text,
  /** The user who asks (one of the team's users, e.g. `traveller-1`); or give `as: operator`. */
  user: text.optional(),
  /** @deprecated Renamed `user`; read as it, for one release (both given must name the same user). */
  [LEGACY_USER_FIELD]: text.optional(),
  /** `operator`: an operator asks instead of a user (then no `user`). */
  as: z.literal('operator', { error: 'must be operator (or give user: <id> instead)' }).optional(),
  tags: z.array(text, { error: 'must be a list of texts' }).optional(),
  /** The conversation, in order; every turn shares one conversation (A2A contextId). */
  turns: z.array(Turn, { error: 'must be a list of turns' }).min(1, 'must hold at least one turn'),
  faults: z.array(Fault, { error: 'must be a list of faults' }).optional(),
  expect: Expectations.default({}),
});
export type EvalCase = z.infer<typeof EvalCase>;

/** The user a case names (`user`, or the field 0.2 named them in); undefined for none. */
export function userOf(evalCase: Pick<EvalCase, 'user' | typeof LEGACY_USER_FIELD>): string | undefined {
  return evalCase.user ?? evalCase[LEGACY_USER_FIELD];
}

/** Who asks in `evalCase`: its `user`, or an operator (`as: operator`). */
export function callerOf(evalCase: Pick<EvalCase, 'user' | typeof LEGACY_USER_FIELD | 'as'>): Caller {
  if (evalCase.as === 'operator') return { kind: 'operator' };
  const id = userOf(evalCase);
  if (id === undefined) {
    throw new Error('an eval case names its user or as: operator (loadCases checks it)');
  }
  return { kind: 'user', id };
}

/** A caller as reports show it: `user traveller-2`, `operator`. */
export function describeCaller(caller: Caller): string {
  return caller.kind === 'operator' ? 'operator' : `user ${caller.id}`;
}

/** What the case's user writes, turn by turn. */
export function userTexts(evalCase: Pick<EvalCase, 'turns'>): string[] {
  return evalCase.turns.flatMap((turn) => ('user' in turn ? [turn.user] : []));
}
