import * as Sdk from '@a2a-js/sdk/client';
import { sendMessageRequest, userMessage } from '@switchboard/protocol';
import { describe, expect } from 'vitest';
import { ASK, fetchWithToken, peerTest, REFUSAL, sdkClientOf, supervisor } from './support/peer-test.ts';
import { listRequest, taskOperationsV1 } from './support/task-operations.ts';

const { url, token } = supervisor();

const sdkClient = (fetchImpl: typeof fetch = fetchWithToken(token)) => sdkClientOf(Sdk, url, fetchImpl);

/** A send's task; a message instead fails the test. */
function taskOf(result: Awaited<ReturnType<Sdk.Client['sendMessage']>>) {
  if (!('status' in result)) throw new Error(`a message, not a task: ${JSON.stringify(result)}`);
  return result;
}

describe('@a2a-js/sdk 1.3 (A2A 1.0)', () => {
  peerTest(
    'sdk-1.3',
    'card',
    'reads the v1.0 card: a JSON-RPC interface and a required bearer scheme',
    async () => {
      const card = await new Sdk.DefaultAgentCardResolver().resolve(url);
      expect(card.supportedInterfaces.map((i) => i.protocolBinding)).toContain('JSONRPC');
      expect(card.securityRequirements.flatMap((requirement) => Object.keys(requirement.schemes))).toContain(
        'bearer',
      );
    },
  );

  taskOperationsV1('sdk-1.3', async () => {
    const client = await sdkClient();
    return {
      send: async (request) => taskOf(await client.sendMessage(request)),
      stream: (request) => client.sendMessageStream(request),
      get: (id) => client.getTask({ tenant: '', id }),
      cancel: (id) => client.cancelTask({ tenant: '', id, metadata: {} }),
      resubscribe: (id) => client.resubscribeTask({ tenant: '', id }),
      list: (contextId) => client.listTasks(listRequest(contextId)),
    };
  });

  peerTest('sdk-1.3', 'auth', 'without a token the send is refused with the reason', async () => {
    const anonymous = await sdkClient(fetch);
    await expect(
      anonymous.sendMessage(sendMessageRequest({ message: userMessage({ text: ASK.stock }) })),
    ).rejects.toThrow(REFUSAL);
  });
});
