import { A2AAgent } from '@mastra/core/a2a';
import { Agent } from '@mastra/core/agent';
import { describe, expect } from 'vitest';
import { ANSWER_START, ASK, expectAnswerOnce, peerTest, REFUSAL, supervisor } from './support/peer-test.ts';
import { relayModel } from './support/relay-model.ts';

const { url, token } = supervisor();

/** The supervisor as a Mastra user wires it: its base URL, the token as a header. */
const remote = (
  protocolVersion: '0.3' | '1.0',
  headers: Record<string, string> = { Authorization: `Bearer ${token}` },
) => new A2AAgent({ id: 'shop', name: 'shop', description: 'The shop', url, protocolVersion, headers });

for (const version of ['0.3', '1.0'] as const) {
  const client = `mastra-${version}`;
  describe(`Mastra A2AAgent, protocolVersion ${version}`, () => {
    peerTest(client, 'card', 'reads the card', async () => {
      const card = await remote(version).getAgentCard();
      expect(card.name).toBe('supervisor');
      expect(card.capabilities.streaming).toBe(true);
    });

    peerTest(client, 'send', 'generate: the text is the answer once, the task completed', async () => {
      const result = await remote(version).generate(ASK.stock);
      expect(result.task?.status.state).toBe('completed');
      expectAnswerOnce(result.text, ANSWER_START.stock);
    });

    peerTest(client, 'stream', 'stream: the text is the answer once, the task completed', async () => {
      const result = await remote(version).stream(ASK.stock);
      let deltas = '';
      for await (const chunk of result.fullStream as AsyncIterable<{
        type: string;
        payload?: { text?: string };
      }>)
        if (chunk.type === 'text-delta') deltas += chunk.payload?.text ?? '';
      expect((await result.task)?.status.state).toBe('completed');
      expectAnswerOnce(deltas, ANSWER_START.stock);
      expect(await result.text).toBe(deltas);
    });

    peerTest(client, 'auth', 'without a token generate is refused with the reason', async () => {
      await expect(remote(version, {}).generate(ASK.stock)).rejects.toThrow(REFUSAL);
    });
  });
}

describe('a Mastra Agent delegating to the supervisor as an A2AAgent', () => {
  const parent = (sub: A2AAgent) => {
    const relay = relayModel({ tool: 'agent-shop', prompt: ASK.stock });
    const agent = new Agent({
      id: 'concierge',
      name: 'concierge',
      instructions: 'Hand every question to the shop.',
      model: relay.model,
      agents: { shop: sub },
    });
    return { agent, seen: relay.seen };
  };

  peerTest(
    'mastra-parent',
    'send',
    'the delegation hands back the answer once; the user reads it once',
    async () => {
      const { agent, seen } = parent(remote('1.0'));
      const result = await agent.generate(ASK.stock);
      expect(seen).toHaveLength(1);
      expectAnswerOnce(seen[0] ?? '', ANSWER_START.stock);
      expectAnswerOnce(result.text, ANSWER_START.stock);
    },
  );

  peerTest(
    'mastra-parent',
    'auth',
    'without a token the delegation fails, and Mastra hands its model no reason',
    async () => {
      const { agent, seen } = parent(remote('1.0', {}));
      const result = await agent.generate(ASK.stock);
      expect(seen).toEqual(['[Agent:concierge] - Failed agent tool execution for shop']);
      expect(result.text).not.toMatch(REFUSAL);
    },
    { peerFault: 'Mastra tells the parent model "Failed agent tool execution", not why' },
  );
});
