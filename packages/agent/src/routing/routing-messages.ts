import type { AnyTool } from '../tools/define-tool.ts';

const summaryOf = (tool: AnyTool) => tool.summary.trim().replace(/\.$/, '');

/** What the agent says when tools came close but none is trusted: which one is meant? */
export function clarifyMessage(tools: readonly AnyTool[]): string {
  if (tools.length === 0)
    return 'I am not sure what you need, so I have not done anything yet. Could you tell me in a few words what you would like me to do?';
  const options = tools.slice(0, 3).map((tool, index) => `${index + 1}. ${summaryOf(tool)}`);
  return [
    'I am not sure which of these you mean, so I have not done anything yet:',
    ...options,
    'Which one is it? A few more words about what you need will do.',
  ].join('\n');
}

/** What the agent says when no tool came close: plainly, that it cannot do this here. */
export function unsupportedMessage(): string {
  return 'I cannot help with that: none of the things I can do fits this request, so I have not done anything. If you meant something else, tell me in other words what you need.';
}
