import { LlmAgent } from '@google/adk';
import { DefaultAgentCardResolver } from 'a2a-sdk-03/client';
import { describe, expect } from 'vitest';
import {
  adkClientFactory,
  adkSession,
  type RecordedRemote,
  recordedRemote,
  TransferringLlm,
} from './support/adk.ts';
import {
  ANSWER_START,
  ASK,
  expectAnswerOnce,
  fetchWithToken,
  peerTest,
  REFUSAL,
  supervisor,
} from './support/peer-test.ts';

const { url, cardUrl, token } = supervisor();

/** The supervisor as an ADK user wires it: the agent's base URL, a client factory sending the token. */
const shop = (options: Partial<Parameters<typeof recordedRemote>[0]> = {}) =>
  recordedRemote({ agentCard: url, clientFactory: adkClientFactory(fetchWithToken(token)), ...options });
/** A session with the remote agent at the root. */
const standalone = (remote: RecordedRemote) => adkSession(remote.agent, remote);

describe('Google ADK RemoteA2AAgent', () => {
  peerTest('adk', 'card', 'given the base URL, it reads the card and runs a turn', async () => {
    const turn = await (await standalone(shop())).turn(ASK.stock);
    expect(turn.errors).toBe('');
    expect(turn.state).toBe('completed');
  });

  peerTest(
    'adk',
    'card',
    "given the card's own URL, it appends the well-known path again and gets 404",
    async () => {
      // It fetches the card before its turn's error handling: runAsync itself rejects.
      const session = await standalone(shop({ agentCard: cardUrl }));
      await expect(session.turn(ASK.stock)).rejects.toThrow(
        `${url}/.well-known/.well-known/agent-card.json: 404`,
      );
    },
    { peerFault: 'ADK appends the well-known path to a URL that already is the card’s' },
  );

  peerTest('adk', 'send', 'on a card without streaming it sends blocking: the answer once', async () => {
    const card = await new DefaultAgentCardResolver().resolve(url);
    const blocking = shop({
      agentCard: { ...card, capabilities: { ...card.capabilities, streaming: false } },
      messageSendConfig: { blocking: true },
    });
    const turn = await (await standalone(blocking)).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    expectAnswerOnce(turn.answer, ANSWER_START.stock);
    expect(turn.answer).toBe(turn.artifact);
  });

  peerTest('adk', 'stream', 'streams: the answer once, progress as partial events', async () => {
    const turn = await (await standalone(shop())).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    expectAnswerOnce(turn.answer, ANSWER_START.stock);
    expect(turn.answer).toBe(turn.artifact);
    expect(turn.progress).toContain('running inventory_stock');
  });

  peerTest('adk', 'follow-up', 'a second turn in the session continues the A2A context', async () => {
    const session = await standalone(shop());
    const first = await session.turn(ASK.stock);
    const second = await session.turn(ASK.order);
    expect(second.contextId).toBeDefined();
    expect(second.contextId).toBe(first.contextId);
    expectAnswerOnce(second.answer, ANSWER_START.order);
  });

  peerTest('adk', 'auth', 'without a token the turn ends with the refusal as its error', async () => {
    const turn = await (await standalone(shop({ clientFactory: adkClientFactory(fetch) }))).turn(ASK.stock);
    expect(turn.errors).toMatch(REFUSAL);
    expect(turn.answer).toBe('');
  });
});

describe('Google ADK LlmAgent with the supervisor as a RemoteA2AAgent sub-agent', () => {
  const underParent = (remote: RecordedRemote) =>
    adkSession(
      new LlmAgent({
        name: 'concierge',
        model: new TransferringLlm(),
        instruction: 'Hand every question to the shop.',
        subAgents: [remote.agent],
      }),
      remote,
    );

  // ADK sends the parent's transfer as "For context:" parts beside the question, which the offline
  // planner does not read past (a model does), so what the supervisor answers is not the stock: the
  // parent's user reads exactly what it answered, once.
  peerTest('adk-sub-agent', 'send', 'the parent transfers; its user reads the answer once', async () => {
    const turn = await (await underParent(shop())).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    expect(turn.artifact).not.toBe('');
    expect(turn.answer).toBe(turn.artifact);
  });

  peerTest('adk-sub-agent', 'follow-up', 'a second turn goes to the same A2A context', async () => {
    const session = await underParent(shop());
    const first = await session.turn(ASK.stock);
    const second = await session.turn(ASK.order);
    expect(second.contextId).toBeDefined();
    expect(second.contextId).toBe(first.contextId);
    expect(second.answer).toBe(second.artifact);
  });

  peerTest('adk-sub-agent', 'auth', 'without a token the refusal reaches the parent’s user', async () => {
    const turn = await (await underParent(shop({ clientFactory: adkClientFactory(fetch) }))).turn(ASK.stock);
    expect(turn.errors).toMatch(REFUSAL);
  });
});
