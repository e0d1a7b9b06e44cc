import { z } from 'zod';

/**
 * A capability of a worker agent, as its A2A card lists it and a supervisor delegates to it: one
 * delegation tool per skill, described by `description` and `examples`, taking the user's request.
 */
export const AgentSkill = z.object({
  /** Kebab-case id, unique per agent, e.g. `order-status`. */
  id: z.string().regex(/^[a-z][a-z0-9-]*$/, 'must be kebab-case, e.g. order-status'),
  name: z.string().min(1),
  /** What the skill does, in the words customers use; a supervisor ranks skills by it. */
  description: z.string().min(1),
  tags: z.array(z.string().min(1)),
  /** Requests this skill answers, word for word as a customer would write them. */
  examples: z.array(z.string().min(1)).min(1),
  /** The agent's tools the skill uses. */
  tools: z.array(z.string().min(1)).min(1),
});
export type AgentSkill = z.infer<typeof AgentSkill>;
