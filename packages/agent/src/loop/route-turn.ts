import { SWITCHBOARD } from '@switchboard/semconv';
import type { ChatMessage } from '../model/messages.ts';
import type { Logger } from '../observe/logger.ts';
import type { SpanAttributes } from '../observe/tracer.ts';
import type { RoutingDecision } from '../routing/routing-decision.ts';
import { clarifyMessage, unsupportedMessage } from '../routing/routing-messages.ts';
import type { ToolRouter } from '../routing/tool-router.ts';
import type { Agent } from './agent.ts';
import type { StopReason } from './events.ts';

/** The router's decision for a turn, and how the run stops when no tool is trusted with it. */
export interface RoutedTurn {
  decision: RoutingDecision;
  stop?: { reason: Extract<StopReason, 'clarify' | 'unsupported'>; output: string };
}

const text = (message: ChatMessage | undefined) =>
  message?.role === 'user' && typeof message.content === 'string' ? message.content : undefined;

/**
 * Routes the turn's request (the last user message; the one before it is tried with it, as an answer
 * to a clarifying question) and logs the decision: candidates, scores, thresholds and outcome.
 */
export async function routeTurn({
  router,
  agent,
  messages,
  logger,
  signal,
}: {
  router: ToolRouter;
  agent: Agent;
  messages: readonly ChatMessage[];
  logger: Logger;
  signal: AbortSignal;
}): Promise<RoutedTurn> {
  const users = messages.filter((message) => message.role === 'user');
  const request = text(users.at(-1)) ?? '';
  const previous = text(users.at(-2));
  const decision = await router.route({
    request,
    ...(previous ? { previous } : {}),
    toolset: agent.toolset,
    permitted: agent.permitted,
    signal,
  });
  logger.info(
    {
      agent: agent.name,
      outcome: decision.outcome,
      candidates: decision.candidates,
      ranked: decision.ranked,
      thresholds: decision.thresholds,
      recall: decision.recall,
      ...(decision.embeddingModel ? { embeddingModel: decision.embeddingModel } : {}),
      ...(decision.rule ? { rule: decision.rule } : {}),
      ...(decision.parts ? { parts: decision.parts } : {}),
      indexedTools: decision.indexedTools,
    },
    'tool routing decision',
  );
  if (decision.outcome === 'clarify') {
    const tools = decision.candidates.flatMap((candidate) => agent.toolset.get(candidate.tool) ?? []);
    return { decision, stop: { reason: 'clarify', output: clarifyMessage(tools) } };
  }
  if (decision.outcome === 'unsupported')
    return { decision, stop: { reason: 'unsupported', output: unsupportedMessage() } };
  return { decision };
}

/** The decision as attributes of the agent's span (names from `@switchboard/semconv`). */
export function routingAttributes(decision: RoutingDecision): SpanAttributes {
  return {
    [SWITCHBOARD.routingOutcome]: decision.outcome,
    [SWITCHBOARD.routingCandidates]: decision.candidates.map((candidate) => candidate.tool),
    [SWITCHBOARD.routingRanked]: decision.ranked.map((candidate) => `${candidate.tool}=${candidate.score}`),
    [SWITCHBOARD.routingRecallThreshold]: decision.thresholds.recall,
    [SWITCHBOARD.routingAcceptThreshold]: decision.thresholds.accept,
    [SWITCHBOARD.routingTopK]: decision.thresholds.topK,
    [SWITCHBOARD.routingRecall]: decision.recall,
    ...(decision.embeddingModel ? { [SWITCHBOARD.routingEmbeddingModel]: decision.embeddingModel } : {}),
    ...(decision.rule ? { [SWITCHBOARD.routingRule]: decision.rule } : {}),
  };
}
