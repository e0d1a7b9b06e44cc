import type { AgentEvent } from '@switchboard/agent';

const STATUS_WORDS = {
  succeeded: 'succeeded',
  failed: 'failed',
  awaiting_approval: 'waits for an approval',
} as const;

/** A progress update for the A2A caller: a short text and structured facts in the metadata. */
export interface Progress {
  text: string;
  metadata: Record<string, unknown>;
}

/**
 * The progress an A2A caller sees for a runtime event: a step starting, a tool starting or
 * finishing. Tool arguments and results are not included; they stay inside the agent.
 */
export function progressOf(event: AgentEvent): Progress | undefined {
  switch (event.type) {
    case 'step-started':
      return { text: `Step ${event.step}: thinking`, metadata: { event: 'step', step: event.step } };
    case 'tool-call-started':
      return {
        text: `Step ${event.step}: running ${event.tool}`,
        metadata: { event: 'tool-started', step: event.step, tool: event.tool, callId: event.callId },
      };
    case 'tool-call-finished': {
      const failed = event.result && !event.result.ok ? event.result.error.code : undefined;
      return {
        text: `Step ${event.step}: ${event.record.tool} ${failed ? `failed (${failed})` : STATUS_WORDS[event.record.status]}`,
        metadata: {
          event: 'tool-finished',
          step: event.step,
          tool: event.record.tool,
          callId: event.record.callId,
          status: event.record.status,
          ...(failed ? { errorCode: failed } : {}),
        },
      };
    }
    case 'tool-progress':
      return {
        text: `Step ${event.step}: ${event.text}`,
        metadata: { event: 'tool-progress', step: event.step, tool: event.tool, callId: event.callId },
      };
    default:
      return undefined;
  }
}
