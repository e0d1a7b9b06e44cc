import type { Agent } from '@switchboard/agent';
import type { ShadowToolCall } from './shadow-records.ts';

/** The risk an agent's tool declares, `unknown` for a tool it does not have. */
export function riskIn(agent: Agent, tool: string): ShadowToolCall['risk'] {
  return agent.toolset.get(tool)?.risk ?? 'unknown';
}
