import type { ApprovalRequest } from '../policy/approvals.ts';
import type { ToolResultEnvelope } from '../tools/tool-result.ts';

/** What the user is told when a run stops for a reason other than the model's own answer. */
export const stopMessages = {
  maxSteps: (maxSteps: number) =>
    `I could not finish this within ${maxSteps} steps, so I stopped rather than keep going. Please narrow the request or try again.`,
  failures: (tool: string, count: number, last: ToolResultEnvelope | undefined) => {
    const why = last && !last.ok ? ` ${last.error.message}` : '';
    return `I could not complete this: the ${tool} step failed ${count} times in a row, so I stopped.${why}`;
  },
  /** `mismatched`: an approval came for other arguments than the calls have now, and was refused. */
  approval: (requests: readonly ApprovalRequest[], { mismatched = false } = {}) =>
    [
      ...(mismatched
        ? ['The approved action differs from the one now requested; it was not done. Ask for approval again.']
        : []),
      'This needs an operator’s approval before I can go on:',
      ...requests.map((request) => `- ${request.text} (approval id ${request.id})`),
    ].join('\n'),
  canceled: () => 'The request was canceled before it finished.',
  withdrawn: (action: string) =>
    `Not done: ${action}. The user sent a new message before an operator approved it, so the request was withdrawn.`,
} as const;
