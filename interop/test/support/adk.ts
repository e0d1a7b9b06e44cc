import {
  type BaseAgent,
  BaseLlm,
  type BaseLlmConnection,
  type Event,
  InMemoryRunner,
  type LlmRequest,
  type LlmResponse,
  RemoteA2AAgent,
  type RemoteA2AAgentConfig,
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

/** A remote agent whose A2A responses are kept, through ADK's own `afterRequestCallbacks`. */
export interface RecordedRemote {
  agent: RemoteA2AAgent;
  /** Every A2A response the agent received (the task, status and artifact updates), in order. */
  responses: Event03[];
}

/** The supervisor as an ADK `RemoteA2AAgent` named {@link REMOTE_NAME}, its responses kept. */
export function recordedRemote(config: Omit<RemoteA2AAgentConfig, 'name'>): RecordedRemote {
  const responses: Event03[] = [];
  const agent = new RemoteA2AAgent({
    ...config,
    name: REMOTE_NAME,
    afterRequestCallbacks: [(_context, response) => void responses.push(response as Event03)],
  });
  return { agent, responses };
}

/**
 * What an ADK user reads of one turn: the final (non-partial) text, the progress (partial events),
 * errors; and, from the A2A responses (what an `afterRequestCallbacks` sees), the answer artifact as
 * the supervisor sent it, the task's last state and its context.
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

/**
 * A runner for `root` (the remote agent itself, or an agent with it as a sub-agent) with one
 * session: each `turn` is a user message in that session.
 */
export async function adkSession(
  root: BaseAgent,
  remote: RecordedRemote,
): Promise<{ turn(text: string): Promise<AdkTurn> }> {
  const runner = new InMemoryRunner({ agent: root, appName: 'interop' });
  const session = await runner.sessionService.createSession({ appName: 'interop', userId: 'C001' });
  return {
    async turn(text) {
      const from = remote.responses.length;
      const events: Event[] = [];
      for await (const event of runner.runAsync({
        userId: 'C001',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text }] },
      }))
        events.push(event);
      const shown = events.filter((event) => event.author === REMOTE_NAME);
      const responses = remote.responses.slice(from);
      const statuses = responses.flatMap((response) =>
        response.kind === 'task' || response.kind === 'status-update' ? [response] : [],
      );
      const artifacts = responses.flatMap((response) =>
        response.kind === 'artifact-update'
          ? [response.artifact]
          : response.kind === 'task'
            ? (response.artifacts ?? [])
            : [],
      );
      return {
        answer: shown
          .filter((event) => !event.partial)
          .map(textOf)
          .filter(Boolean)
          .join('\n'),
        progress: shown
          .filter((event) => event.partial)
          .map(textOf)
          .join('\n'),
        artifact: artifacts.map((artifact) => text03(artifact.parts)).join('\n'),
        errors: shown.flatMap((event) => (event.errorMessage ? [event.errorMessage] : [])).join('\n'),
        state: statuses.at(-1)?.status.state,
        contextId: statuses.at(-1)?.contextId,
      };
    },
  };
}
