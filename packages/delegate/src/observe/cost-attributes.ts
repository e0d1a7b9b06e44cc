import type { StreamResponse, Task } from '@a2a-js/sdk';
import type { Attributes } from '@opentelemetry/api';
import type { RequestCost } from '@switchboard/agent';
import { readTaskCost } from '@switchboard/protocol';
import { GEN_AI, SWITCHBOARD } from '@switchboard/semconv';

/**
 * A request's cost as attributes of the spans of the call that carried it (its SERVER span, the
 * caller's CLIENT span, a command's root span): the tree's tokens under the GenAI usage names, its
 * times and hops under `switchboard.cost.*`, and one JSON object per agent.
 */
export function costAttributes(cost: RequestCost): Attributes {
  const { total } = cost;
  return {
    [GEN_AI.usageInputTokens]: total.tokensIn,
    [GEN_AI.usageOutputTokens]: total.tokensOut,
    [SWITCHBOARD.costModelMs]: total.modelMs,
    [SWITCHBOARD.costToolMs]: total.toolMs,
    [SWITCHBOARD.costQueueWaitMs]: total.queueWaitMs,
    [SWITCHBOARD.costHops]: total.hops,
    [SWITCHBOARD.costAgents]: cost.agents.map((entry) => JSON.stringify(entry)),
  };
}

/**
 * The cost attributes of a call's result or of one streamed event, when it carries its task's cost
 * (`COST_KEY`, checked); none otherwise.
 */
export function costAttributesOf(result: Task | StreamResponse | unknown): Attributes {
  const metadata = metadataOf(result);
  const reading = readTaskCost(metadata);
  return reading.kind === 'cost' ? costAttributes(reading.cost) : {};
}

function metadataOf(result: unknown): Record<string, unknown> | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const payload = (result as Partial<StreamResponse>).payload;
  if (payload?.$case === 'task') return payload.value.metadata;
  if (payload?.$case === 'statusUpdate') return payload.value.metadata;
  if ('status' in result && 'metadata' in result) return (result as Task).metadata;
  return undefined;
}
