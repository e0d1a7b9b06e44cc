import * as Sdk from 'a2a-sdk-03/client';
import { describe, expect } from 'vitest';
import { ASK, fetchWithToken, peerTest, REFUSAL, sdkClientOf, supervisor } from './support/peer-test.ts';
import { message03, taskOperations03 } from './support/task-operations.ts';
import type { Task03 } from './support/v03-shapes.ts';

const { url, token } = supervisor();

const sdkClient = (fetchImpl: typeof fetch = fetchWithToken(token)) => sdkClientOf(Sdk, url, fetchImpl);

describe('@a2a-js/sdk 0.3 (A2A 0.3)', () => {
  peerTest('sdk-0.3', 'card', 'reads the card: JSON-RPC preferred, a bearer scheme required', async () => {
    const card = await new Sdk.DefaultAgentCardResolver().resolve(url);
    expect(card.preferredTransport).toBe('JSONRPC');
    expect(card.security?.flatMap((requirement) => Object.keys(requirement))).toContain('bearer');
  });

  taskOperations03('sdk-0.3', async () => {
    const client = await sdkClient();
    return {
      send: async (text, contextId) => (await client.sendMessage(message03(text, contextId))) as Task03,
      stream: (text) => client.sendMessageStream(message03(text)),
      get: async (id) => (await client.getTask({ id })) as Task03,
      cancel: async (id) => (await client.cancelTask({ id })) as Task03,
      resubscribe: (id) => client.resubscribeTask({ id }),
    };
  });

  peerTest('sdk-0.3', 'auth', 'without a token the send is refused with the reason', async () => {
    await expect((await sdkClient(fetch)).sendMessage(message03(ASK.stock))).rejects.toThrow(REFUSAL);
  });
});
