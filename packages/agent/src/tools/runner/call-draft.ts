import type { ToolCall } from '../../model/messages.ts';
import type { AnyTool } from '../define-tool.ts';
import type { ToolCallRecord } from '../tool-call-record.ts';

/** One call on its way through the runner: what is known of it so far. Each step fills in more. */
export interface CallDraft {
  record: ToolCallRecord;
  /** The tool the call names, when there is one. */
  tool: AnyTool | undefined;
  /** The arguments once they passed the tool's schema. */
  input: unknown;
  /** The intent record that guards a non-idempotent action, while the call holds it. */
  intentKey?: string | undefined;
}

/** A fresh draft: refused until a step says otherwise. */
export function draftCall({
  call,
  step,
  tool,
}: {
  call: ToolCall;
  step: number;
  tool: AnyTool | undefined;
}): CallDraft {
  return {
    tool,
    input: undefined,
    record: {
      callId: call.id,
      tool: call.function.name,
      step,
      arguments: call.function.arguments,
      status: 'failed',
      argumentsValid: false,
      attempts: 0,
      durationMs: 0,
    },
  };
}
