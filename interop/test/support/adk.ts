import type { BaseAgent } from '@google/adk';
import {
  BaseLlm,
  type BaseLlmConnection,
  type Event,
  InMemoryRunner,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { ClientFactory, JsonRpcTransportFactory } from 'a2a-sdk-03/client';
import { type Event03, text03 } from './v03-shapes.ts';

/** The name the remote supervisor goes by in ADK. */
export const REMOTE_NAME = 'shop';

/**
 * A model that always hands the turn to the remote agent (ADK's `transfer_to_agent`), so a parent
 * `LlmAgent` delegates without a network model.
 */
export class TransferringLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-transfer' });
  }
  async *generateContentAsync(_request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    yield {
      content: {
        role: 'model',
        parts: [{ functionCall: { name: 'transfer_to_agent', args: { agentName: REMOTE_NAME } } }],
      },
      turnComplete: true,
    };
  }
  connect(_request: LlmRequest): Promise<BaseLlmConnection> {
    throw new Error('the scripted model has no live connection');
  }
}

/** ADK's A2A client factory (its own @a2a-js/sdk 0.3), sending `fetchImpl`'s credentials. */
export const adkClientFactory = (fetchImpl: typeof fetch) =>
  new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });

/**
 * What an ADK user reads of one turn: the final (non-partial) text, the progress (partial events),
 * errors; and, from the A2A responses ADK keeps on its events, the answer artifact as the supervisor
 * sent it, the task's last state and its context.
 */
export interface AdkTurn {
  answer: string;
  artifact: string;
  progress: string;
  errors: string;
  state: string | undefined;
  contextId: string | undefined;
}

const textOf = (event: Event) =>
  (event.content?.parts ?? []).flatMap((part) => (part.text ? [part.text] : [])).join('\n');

/** A runner for `agent` with one session: each `turn` is a user message in that session. */
export async function adkSession(agent: BaseAgent): Promise<{ turn(text: string): Promise<AdkTurn> }> {
  const runner = new InMemoryRunner({ agent, appName: 'interop' });
  const session = await runner.sessionService.createSession({ appName: 'interop', userId: 'C001' });
  return {
    async turn(text) {
      const events: Event[] = [];
      for await (const event of runner.runAsync({
        userId: 'C001',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text }] },
      }))
        events.push(event);
      const remote = events.filter((event) => event.author === REMOTE_NAME);
      const responses = remote
        .map((event) => event.customMetadata?.['a2a:response'])
        .filter(Boolean) as Event03[];
      const states = responses.flatMap((response) =>
        response.kind === 'task' || response.kind === 'status-update' ? [response.status.state] : [],
      );
      const artifacts = responses.flatMap((response) =>
        response.kind === 'artifact-update'
          ? [response.artifact]
          : response.kind === 'task'
            ? (response.artifacts ?? [])
            : [],
      );
      return {
        answer: remote
          .filter((event) => !event.partial)
          .map(textOf)
          .filter(Boolean)
          .join('\n'),
        progress: remote
          .filter((event) => event.partial)
          .map(textOf)
          .join('\n'),
        artifact: artifacts.map((artifact) => text03(artifact.parts)).join('\n'),
        errors: remote.flatMap((event) => (event.errorMessage ? [event.errorMessage] : [])).join('\n'),
        state: states.at(-1),
        contextId: remote
          .map((event) => event.customMetadata?.['a2a:context_id'] as string | undefined)
          .at(-1),
      };
    },
  };
}
