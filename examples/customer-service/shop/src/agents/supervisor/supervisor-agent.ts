import type { Agent } from '@switchboard/agent';
import type { SupervisorSpec } from '@switchboard/delegate';
import type { SkillSpec } from '@switchboard/protocol';

/** The supervisor's system prompt: its job, its limits, and how it works with the workers. */
export const SUPERVISOR_INSTRUCTIONS = [
  'You are the customer-service supervisor of an online shop. You never look up or change shop data yourself:',
  'every part of a customer request goes to the worker agent skill that owns it, through your tools.',
  'Hand each worker the customer request in full, with every order id, product and detail it needs.',
  'When a request has several parts (an order question and a stock question), delegate each part.',
  'Answer from what the workers said, plainly and briefly; never invent order, stock or refund facts.',
  'If a worker could not help, or is unreachable, say so honestly and say what the customer can do.',
  'Refunds and emails wait for an operator approval; when one waits, tell the customer it is pending.',
].join(' ');

/** The supervisor's card publishes one skill: customer support, backed by every delegation tool. */
export function supervisorSkills(agent: Agent): SkillSpec[] | undefined {
  if (agent.permitted.size === 0) return undefined;
  return [
    {
      id: 'customer-support',
      name: 'Customer support',
      description:
        'Answers customer requests about orders, deliveries, stock, refunds and complaints by delegating to the specialist agents.',
      tags: ['customer-service'],
      examples: [
        'Where is my order A10086 and when will it arrive?',
        'Is the blue kettle in stock?',
        'Please refund order A10086, it arrived broken.',
      ],
      tools: [...agent.permitted],
    },
  ];
}

/**
 * The shop's supervisor: the front desk of customer service, over the orders, inventory and comms
 * workers' skills. What its service (`runSupervisorService`), an in-process run and the generated
 * cards all build it from (`supervisorAgent` of `@switchboard/delegate`).
 */
export const SHOP_SUPERVISOR: SupervisorSpec = {
  name: 'supervisor',
  description:
    'The front desk of customer service: understands the request, delegates each part to the orders, inventory or comms agent, and answers.',
  instructions: SUPERVISOR_INSTRUCTIONS,
  skills: supervisorSkills,
};
