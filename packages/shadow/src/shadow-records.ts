import { ChatMessage, Principal } from '@switchboard/agent';
import { z } from 'zod';

/** A copy of a live request for an agent's shadow: what the live agent was asked, by whom. */
export const ShadowCopy = z.object({
  /** The live task's id: the pair's key. */
  taskId: z.string().min(1),
  contextId: z.string(),
  agent: z.string().min(1),
  text: z.string(),
  principal: Principal.optional(),
  acceptedAt: z.iso.datetime(),
  /** The conversation's earlier turns, as the live run had them (none for a first request). */
  history: z.array(ChatMessage).optional(),
});
export type ShadowCopy = z.infer<typeof ShadowCopy>;

/** One tool call of a run, as a pair record keeps it. */
export const ShadowToolCall = z.object({
  tool: z.string(),
  risk: z.enum(['read', 'write', 'dangerous', 'unknown']),
  /** Validated arguments of write and dangerous calls (what was, or would have been, done). */
  arguments: z.unknown().optional(),
  status: z.string(),
});
export type ShadowToolCall = z.infer<typeof ShadowToolCall>;

/**
 * One side of a pair: the live run (what the user got), the shadow's run (what it would have done),
 * or an operator's handling of the request (the human baseline).
 */
export const ShadowSide = z.object({
  /** `live`, `shadow` or `operator`. */
  role: z.enum(['live', 'shadow', 'operator']),
  /** What ran: the model id, or the operator's name. */
  by: z.string(),
  answer: z.string(),
  /** How the run ended: the A2A task state of the live task, the stop reason of the shadow's run. */
  outcome: z.string(),
  tools: z.array(ShadowToolCall),
  steps: z.number().int().nonnegative().optional(),
  tokens: z.object({ prompt: z.number(), completion: z.number() }).optional(),
  latencyMs: z.number().nonnegative().optional(),
  traceId: z.string().optional(),
  finishedAt: z.iso.datetime(),
});
export type ShadowSide = z.infer<typeof ShadowSide>;

/**
 * A judge model's verdict on a pair's answers (`switchboard shadow report --judge <model>`): whether
 * the shadow's answer tells the user what the baseline's did, which is better, and why.
 */
export const ShadowJudgement = z.object({
  /** The judge model's id. */
  by: z.string(),
  /** The side the shadow was judged against; a verdict against `live` is stale once an operator's side is in. */
  against: z.enum(['live', 'operator']),
  equivalent: z.boolean(),
  better: z.enum(['baseline', 'shadow', 'same']),
  reason: z.string(),
  judgedAt: z.iso.datetime(),
});
export type ShadowJudgement = z.infer<typeof ShadowJudgement>;

/** Everything recorded of one request: the copy and the sides that have finished so far. */
export const ShadowPair = z.object({
  taskId: z.string(),
  agent: z.string(),
  /** The candidate's label (`SHADOW_CANDIDATE`), e.g. `prompt-v2`. */
  candidate: z.string(),
  text: z.string(),
  acceptedAt: z.iso.datetime(),
  live: ShadowSide.optional(),
  shadow: ShadowSide.optional(),
  operator: ShadowSide.optional(),
  judgement: ShadowJudgement.optional(),
});
export type ShadowPair = z.infer<typeof ShadowPair>;
