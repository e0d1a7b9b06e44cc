import type { Agent } from '@switchboard/agent';
import { createSupervisorAgent, supervisorSkills } from '@switchboard/customer-service';
import { type DelegationToolsOptions, delegationTools } from '@switchboard/delegate';
import type { SkillSpec } from '@switchboard/protocol';

/**
 * The supervisor agent over one delegation tool per worker skill (`delegationTools` of the peers'
 * cards), and the card skills it publishes: how every supervisor of the shop is assembled, the
 * service's (`WorkerTools`, over the queues), the in-memory run's (over loopback HTTP) and the
 * generated cards'.
 */
export function supervisorAgent(options: DelegationToolsOptions): {
  agent: Agent;
  skills: SkillSpec[] | undefined;
} {
  const agent = createSupervisorAgent({ tools: delegationTools(options) });
  return { agent, skills: supervisorSkills(agent) };
}
