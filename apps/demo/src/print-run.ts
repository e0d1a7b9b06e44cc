import type { AgentEvent, AgentRunResult } from '@switchboard/agent';

const indent = (text: string, by = '  ') =>
  text
    .split('\n')
    .map((line) => by + line)
    .join('\n');

/** One line of live progress per event worth showing; undefined for the rest. */
export function progressLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'step-started':
      return `  · step ${event.step}: asking the model`;
    case 'tool-call-started':
      return `  · step ${event.step}: ${event.tool}(${event.arguments})`;
    case 'tool-call-finished':
      return event.result?.ok === false
        ? `  · step ${event.step}: ${event.record.tool} failed: ${event.result.error.code}`
        : undefined;
    case 'approval-required':
      return `  · step ${event.step}: waiting for an operator to approve ${event.request.tool}`;
    default:
      return undefined;
  }
}

/** The run as a short report: the answer, then the steps and the tool calls. */
export function formatRun(result: AgentRunResult): string {
  const steps = result.steps.map((step) => {
    const calls = step.toolCallIds
      .map((id) => result.toolCalls.find((call) => call.callId === id)?.tool ?? id)
      .join(', ');
    const what = calls ? `asked for ${calls}` : 'answered';
    return `${String(step.step).padStart(2)}. ${what} (${step.finishReason}, ${step.usage.promptTokens} prompt + ${step.usage.completionTokens} completion tokens)`;
  });
  const calls = result.toolCalls.map((call) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const outcome = call.errorCode ? `${call.status}: ${call.errorCode}` : call.status;
    return `${call.tool}(${args}) -> ${outcome}, ${call.durationMs} ms`;
  });
  const approvals = result.pendingApprovals.map((request) => `${request.id}: ${request.text}`);
  return [
    'Answer',
    indent(result.output),
    '',
    `Steps (${result.steps.length}, stopped by: ${result.stopReason})`,
    indent(steps.join('\n') || '(none)'),
    '',
    `Tool calls (${result.toolCalls.length})`,
    indent(calls.join('\n') || '(none)'),
    ...(approvals.length > 0 ? ['', 'Waiting for approval', indent(approvals.join('\n'))] : []),
    '',
    `Tokens: ${result.usage.promptTokens} prompt, ${result.usage.completionTokens} completion. Conversation ${result.conversationId}.`,
  ].join('\n');
}
