import { GEN_AI, genAiSpanName, SWITCHBOARD } from '@switchboard/semconv';
import type { ToolCall } from '../../model/messages.ts';
import type { AgentSpan, AgentSpanSpec } from '../../observe/tracer.ts';
import type { ToolRisk } from '../../policy/tool-risk.ts';
import type { ToolCallOutcome } from '../tool-call-record.ts';

/** The `execute_tool {name}` span of one call, with the GenAI attributes known before it runs. */
export function toolSpanSpec({
  call,
  step,
  agent,
  conversationId,
  risk,
}: {
  call: ToolCall;
  step: number;
  agent: string;
  conversationId: string;
  risk: ToolRisk | 'unknown';
}): AgentSpanSpec {
  return {
    operation: 'execute_tool',
    name: genAiSpanName({ operation: 'execute_tool', target: call.function.name }),
    attributes: {
      [GEN_AI.operationName]: 'execute_tool',
      [GEN_AI.toolName]: call.function.name,
      [GEN_AI.toolCallId]: call.id,
      [GEN_AI.toolType]: 'function',
      [GEN_AI.agentName]: agent,
      [GEN_AI.conversationId]: conversationId,
      [SWITCHBOARD.toolRisk]: risk,
      [SWITCHBOARD.agentStep]: step,
    },
  };
}

/**
 * Writes how the call ended onto its span. Arguments and result are only offered: the tracer keeps
 * them when content capture is on. The error message is ours, never a handler's.
 */
export function reportToolSpan(span: AgentSpan, outcome: ToolCallOutcome): void {
  span.offerContent?.({
    [GEN_AI.toolCallArguments]: outcome.record.arguments,
    ...(outcome.kind === 'settled' ? { [GEN_AI.toolCallResult]: outcome.envelope } : {}),
  });
  span.setAttributes({
    [SWITCHBOARD.toolStatus]: outcome.record.status,
    [SWITCHBOARD.toolAttempts]: outcome.record.attempts,
    [SWITCHBOARD.approvalId]: outcome.record.approvalId,
  });
  if (outcome.kind === 'settled' && !outcome.envelope.ok) {
    span.setError(outcome.envelope.error.code, outcome.envelope.error.message);
  }
}
