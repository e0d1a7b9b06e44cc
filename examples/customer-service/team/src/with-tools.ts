import { type Agent, type AnyTool, defineAgent } from '@switchboard/agent';

/** The agent with each tool passed through `replace`, its prompt and permissions unchanged. */
export function withTools(
  agent: Agent,
  replace: ((agent: string, tool: AnyTool) => AnyTool) | undefined,
): Agent {
  if (!replace) return agent;
  return defineAgent({
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    tools: agent.toolset.list().map((tool) => replace(agent.name, tool)),
    permissions: { tools: [...agent.permitted] },
    modelSettings: agent.modelSettings,
  });
}
