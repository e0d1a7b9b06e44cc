import type { StreamResponse, Task } from '@a2a-js/sdk';
import { MastraClient } from '@mastra/client-js';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { describe, expect } from 'vitest';
import { ASK, peerTest, REFUSAL, supervisor } from './support/peer-test.ts';
import {
  listRequest,
  message03,
  resultOf,
  taskOperations03,
  taskOperationsV1,
} from './support/task-operations.ts';
import type { Task03 } from './support/v03-shapes.ts';

const { url, token } = supervisor();

/**
 * client-js addresses an agent at `<baseUrl><apiPrefix>/a2a/<agentId>` and its card at
 * `<baseUrl><apiPrefix>/.well-known/<agentId>/agent-card.json`, Mastra's own layout. With no prefix and
 * the agent id `jsonrpc`, the first is the supervisor's JSON-RPC endpoint; the card is not there.
 */
const mastra = (headers: Record<string, string> = { Authorization: `Bearer ${token}` }) =>
  new MastraClient({ baseUrl: url, apiPrefix: '', headers, retries: 0 });
const AGENT_ID = 'jsonrpc';
const CARD_FAULT = { peerFault: 'client-js reads only Mastra’s card layout' };

describe('Mastra client-js getA2A (A2A 0.3)', () => {
  const a2a = () => mastra().getA2A(AGENT_ID);

  peerTest(
    'mastra-client',
    'card',
    "looks for the card at Mastra's own path and gets 404",
    async () => {
      await expect(a2a().getAgentCard()).rejects.toThrow(/404/);
    },
    CARD_FAULT,
  );

  // Its sendMessage, getTask and cancelTask hand back the JSON-RPC envelope (cancelTask is typed as a Task).
  taskOperations03('mastra-client', () => ({
    send: async (text, contextId) => resultOf<Task03>(await a2a().sendMessage(message03(text, contextId))),
    stream: (text) => a2a().sendMessageStream(message03(text)),
    get: async (id) => resultOf<Task03>(await a2a().getTask({ id })),
    cancel: async (id) => resultOf<Task03>(await a2a().cancelTask({ id })),
    resubscribe: (id) => a2a().resubscribeTask({ id }),
  }));

  peerTest('mastra-client', 'auth', 'without a token the send is refused with the reason', async () => {
    await expect(mastra({}).getA2A(AGENT_ID).sendMessage(message03(ASK.stock))).rejects.toThrow(REFUSAL);
  });
});

describe('Mastra client-js getA2AV1 (A2A 1.0)', () => {
  const v1 = () => mastra().getA2AV1(AGENT_ID);

  peerTest(
    'mastra-client-v1',
    'card',
    "looks for the card at Mastra's own path and gets 404",
    async () => {
      await expect(v1().getAgentCard()).rejects.toThrow(/404/);
    },
    CARD_FAULT,
  );

  taskOperationsV1('mastra-client-v1', () => ({
    send: async (request) => {
      const { payload } = (await v1().sendMessage(request)) as {
        payload?: { $case: string; value: unknown };
      };
      if (payload?.$case !== 'task') throw new Error(`not a task: ${JSON.stringify(payload)}`);
      return payload.value as Task;
    },
    stream: (request) => v1().sendMessageStream(request) as AsyncIterable<StreamResponse>,
    get: async (id) => (await v1().getTask({ tenant: '', id })) as Task,
    cancel: async (id) => (await v1().cancelTask({ tenant: '', id, metadata: {} })) as Task,
    resubscribe: (id) => v1().resubscribeTask({ tenant: '', id }) as AsyncIterable<StreamResponse>,
    list: async (contextId) => (await v1().listTasks(listRequest(contextId))) as { tasks: Task[] },
  }));

  peerTest('mastra-client-v1', 'auth', 'without a token the send is refused with the reason', async () => {
    const request = sendMessageRequest({ message: userMessage({ text: ASK.stock }) });
    await expect(mastra({}).getA2AV1(AGENT_ID).sendMessage(request)).rejects.toThrow(REFUSAL);
  });
});
