import { A2AClient } from 'a2a-sdk-02/client';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import { ASK, fetchWithToken, peerTest, REFUSAL, supervisor } from './support/peer-test.ts';
import { message03, resultOf, taskOperations03 } from './support/task-operations.ts';
import { read03Stream, type Task03 } from './support/v03-shapes.ts';

const { url, token } = supervisor();

beforeAll(() => {
  // The 0.2 client takes no fetch of its own: its users put one that sends the token in the global's place.
  vi.stubGlobal('fetch', fetchWithToken(token));
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('@a2a-js/sdk 0.2 (A2A 0.2)', () => {
  peerTest('sdk-0.2', 'card', 'reads the card where 0.2 asks, /.well-known/agent.json', async () => {
    const card = await new A2AClient(url).getAgentCard();
    expect(card.url).toBe(`${url}/a2a/jsonrpc`);
    expect(card.capabilities.streaming).toBe(true);
  });

  taskOperations03('sdk-0.2', () => {
    const client = new A2AClient(url);
    return {
      send: async (text, contextId) => resultOf<Task03>(await client.sendMessage(message03(text, contextId))),
      stream: (text) => client.sendMessageStream(message03(text)),
      get: async (id) => resultOf<Task03>(await client.getTask({ id })),
      cancel: async (id) => resultOf<Task03>(await client.cancelTask({ id })),
      resubscribe: (id) => client.resubscribeTask({ id }),
    };
  });

  peerTest('sdk-0.2', 'auth', 'without a token the stream is refused with the reason', async () => {
    vi.unstubAllGlobals();
    const refused = read03Stream(new A2AClient(url).sendMessageStream(message03(ASK.stock)));
    await expect(refused).rejects.toThrow(REFUSAL);
  });

  peerTest(
    'sdk-0.2',
    'auth',
    'without a token a blocking send fails reading the error body twice',
    async () => {
      vi.unstubAllGlobals();
      await expect(new A2AClient(url).sendMessage(message03(ASK.stock))).rejects.toThrow('Body is unusable');
    },
    { peerFault: '`A2AClient` 0.2 reads a JSON-RPC error body twice and throws "Body is unusable"' },
  );
});
