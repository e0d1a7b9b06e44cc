import { type Agent, defineAgent } from '@switchboard/agent';
import type { SkillSpec } from '@switchboard/protocol';
import { type DelegationToolsOptions, delegationTools } from '../delegation-tools.ts';

/**
 * What makes a supervisor a team's own: its name, its instructions, how its card presents it. It
 * has no tools of its own; its tools are one delegation tool per skill of the workers it finds.
 */
export interface SupervisorSpec {
  /** The agent's (and its service's) name (default `supervisor`). */
  name?: string;
  /** One line for its card: what users come to it for. */
  description: string;
  /** Its system prompt: its job, its limits, how it works with the workers. */
  instructions: string;
  /**
   * Its card's skills, given the agent with its delegation tools (default: one skill per tool).
   * Return `undefined` while it has no tools (no worker found yet).
   */
  skills?: (agent: Agent) => SkillSpec[] | undefined;
}

/** The name a supervisor runs as: its spec's, else `supervisor`. */
export const supervisorName = (spec: Pick<SupervisorSpec, 'name'>): string => spec.name ?? 'supervisor';

/**
 * The supervisor agent over one delegation tool per worker skill (`delegationTools` of the peers'
 * cards), and the card skills it publishes: how every supervisor is assembled, the service's
 * (`WorkerTools`, over the queues), an in-memory run's (over loopback HTTP) and generated cards'.
 *
 * @example
 * const { agent, skills } = supervisorAgent(
 *   { description: 'The travel desk.', instructions: 'Delegate flights to flights, weather to weather.' },
 *   { peers, clientFor, signer, timeoutMs: 60_000 },
 * );
 */
export function supervisorAgent(
  spec: SupervisorSpec,
  options: DelegationToolsOptions,
): { agent: Agent; skills: SkillSpec[] | undefined } {
  const agent = defineAgent({
    name: supervisorName(spec),
    description: spec.description,
    instructions: spec.instructions,
    tools: delegationTools(options),
  });
  return { agent, skills: spec.skills?.(agent) };
}
