import type { AgentSkill } from '@a2a-js/sdk';
import type { Agent, AnyTool } from '@switchboard/agent';
import { permittedTools } from './permissions-extension.ts';

/**
 * A skill of the card as a capability that groups tools ("order status": `get_order` and
 * `estimate_delivery`), for agents whose tools are finer than what callers delegate.
 */
export interface SkillSpec {
  /** Stable, kebab-case: `order-status`. */
  id: string;
  name: string;
  /** What callers can ask for, in their words. */
  description: string;
  tags?: readonly string[];
  examples?: readonly string[];
  /** The permitted tools behind this skill. */
  tools: readonly string[];
}

const RISK_ORDER = ['read', 'write', 'dangerous'] as const;

const humanize = (name: string) => name.replace(/[_-]+/g, ' ').replace(/^\w/, (c) => c.toUpperCase());

/** The highest risk of a set of tools. */
export function highestRisk(tools: readonly Pick<AnyTool, 'risk'>[]): AnyTool['risk'] {
  return tools.reduce<AnyTool['risk']>(
    (top, tool) => (RISK_ORDER.indexOf(tool.risk) > RISK_ORDER.indexOf(top) ? tool.risk : top),
    'read',
  );
}

/**
 * The risk tags of a skill: the highest risk its tools lead to, and `requires-approval` when a call
 * can wait for a human. A delegation tool to a peer's skill that needs an approval leads to
 * `dangerous` (see `leadsTo`), so a supervisor's skill over it says it leads to an approval.
 */
function riskTags(tools: readonly AnyTool[]): string[] {
  const risk = highestRisk(tools.map((tool) => ({ risk: tool.leadsTo ?? tool.risk })));
  return [risk, ...(risk === 'dangerous' ? ['requires-approval'] : [])];
}

/** The skills of a card: the given specs, else one per permitted tool; sorted by id. */
export function cardSkills({
  agent,
  skills,
  examples,
}: {
  agent: Agent;
  skills: readonly SkillSpec[] | undefined;
  examples: Readonly<Record<string, readonly string[]>>;
}): AgentSkill[] {
  const specs: SkillSpec[] =
    skills?.map((spec) => ({ ...spec })) ??
    permittedTools(agent).map((tool) => ({
      id: tool.name,
      name: humanize(tool.name),
      description: [
        tool.summary,
        `Use when: ${tool.whenToUse}`,
        ...(tool.whenNotToUse ? [`Not for: ${tool.whenNotToUse}`] : []),
      ].join(' '),
      examples: examples[tool.name] ?? [],
      tools: [tool.name],
    }));
  return specs
    .map((spec) => {
      const tools = spec.tools.flatMap((name) => agent.toolset.get(name) ?? []);
      return {
        id: spec.id,
        name: spec.name,
        description: spec.description,
        tags: [...new Set([...riskTags(tools), ...(spec.tags ?? [])])],
        examples: [...(spec.examples ?? [])],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      };
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Problems of skill specs against the agent: unknown or unpermitted tools, duplicate ids, tools in no skill. */
export function skillProblems(agent: Agent, skills: readonly SkillSpec[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const covered = new Set<string>();
  for (const spec of skills) {
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(spec.id ?? ''))
      problems.push(`skill id "${spec.id}" must be kebab-case letters and digits, e.g. "order-status"`);
    if (seen.has(spec.id)) problems.push(`skill id "${spec.id}" is used twice`);
    seen.add(spec.id);
    if (!spec.description?.trim()) problems.push(`skill "${spec.id}" needs a description`);
    if (!Array.isArray(spec.tools) || spec.tools.length === 0)
      problems.push(`skill "${spec.id}" must name at least one tool`);
    for (const tool of spec.tools ?? []) {
      if (!agent.permitted.has(tool))
        problems.push(`skill "${spec.id}" names "${tool}", which is not a tool this agent may call`);
      covered.add(tool);
    }
  }
  const left = [...agent.permitted].filter((tool) => !covered.has(tool)).sort();
  if (left.length > 0) problems.push(`tools in no skill: ${left.join(', ')} (callers could not reach them)`);
  return problems;
}
