import { LlmAgent, RemoteA2AAgent } from '@google/adk';
import { DefaultAgentCardResolver } from 'a2a-sdk-03/client';
import { describe, expect } from 'vitest';
import { adkClientFactory, adkSession, REMOTE_NAME, TransferringLlm } from './support/adk.ts';
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

/** The remote supervisor as an ADK user wires it: the agent's base URL, a factory sending the token. */
const remoteAgent = (options: Partial<ConstructorParameters<typeof RemoteA2AAgent>[0]> = {}) =>
  new RemoteA2AAgent({
    name: REMOTE_NAME,
    agentCard: url,
    clientFactory: adkClientFactory(fetchWithToken(token)),
    ...options,
  });

describe('Google ADK RemoteA2AAgent', () => {
  peerTest('adk', 'card', 'given the base URL, it reads the card and runs a turn', async () => {
    const turn = await (await adkSession(remoteAgent())).turn(ASK.stock);
    expect(turn.errors).toBe('');
    expect(turn.state).toBe('completed');
  });

  peerTest(
    'adk',
    'card',
    "given the card's own URL, it appends the well-known path again and gets 404",
    async () => {
      const turn = await (await adkSession(remoteAgent({ agentCard: cardUrl })))
        .turn(ASK.stock)
        .catch((error: unknown) => ({ errors: String(error) }));
      expect(turn.errors).toMatch(/404/);
    },
    { peerFault: 'ADK appends the well-known path to a URL that already is the card’s' },
  );

  peerTest('adk', 'send', 'on a card without streaming it sends blocking: the answer once', async () => {
    const card = await new DefaultAgentCardResolver().resolve(url);
    const blocking = remoteAgent({
      agentCard: { ...card, capabilities: { ...card.capabilities, streaming: false } },
      messageSendConfig: { blocking: true },
    });
    const turn = await (await adkSession(blocking)).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    expectAnswerOnce(turn.answer, ANSWER_START.stock);
  });

  peerTest('adk', 'stream', 'streams: the answer once, progress as partial events', async () => {
    const turn = await (await adkSession(remoteAgent())).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    expectAnswerOnce(turn.answer, ANSWER_START.stock);
    expect(turn.answer).toBe(turn.artifact);
    expect(turn.progress).toContain('running inventory_stock');
  });

  peerTest('adk', 'follow-up', 'a second turn in the session continues the A2A context', async () => {
    const session = await adkSession(remoteAgent());
    const first = await session.turn(ASK.stock);
    const second = await session.turn(ASK.order);
    expect(second.contextId).toBeDefined();
    expect(second.contextId).toBe(first.contextId);
    expectAnswerOnce(second.answer, ANSWER_START.order);
  });

  peerTest('adk', 'auth', 'without a token the turn ends with the refusal as its error', async () => {
    const turn = await (await adkSession(remoteAgent({ clientFactory: adkClientFactory(fetch) }))).turn(
      ASK.stock,
    );
    expect(turn.errors).toMatch(REFUSAL);
    expect(turn.answer).toBe('');
  });
});

describe('Google ADK LlmAgent with the supervisor as a RemoteA2AAgent sub-agent', () => {
  const parent = (sub: RemoteA2AAgent) =>
    new LlmAgent({
      name: 'concierge',
      model: new TransferringLlm(),
      instruction: 'Hand every question to the shop.',
      subAgents: [sub],
    });

  peerTest('adk-sub-agent', 'send', 'the parent transfers; its user reads the answer once', async () => {
    const turn = await (await adkSession(parent(remoteAgent()))).turn(ASK.stock);
    expect(turn.state).toBe('completed');
    // ADK sends the parent's transfer as "For context:" parts beside the question, which the offline
    // planner does not read past (a real model does), so the answer is whatever the supervisor said:
    // its user reads exactly that, once.
    expect(turn.artifact).not.toBe('');
    expect(turn.answer).toBe(turn.artifact);
  });

  peerTest('adk-sub-agent', 'follow-up', 'a second turn goes to the same A2A context', async () => {
    const session = await adkSession(parent(remoteAgent()));
    const first = await session.turn(ASK.stock);
    const second = await session.turn(ASK.order);
    expect(second.contextId).toBe(first.contextId);
    expect(second.answer).toBe(second.artifact);
  });

  peerTest('adk-sub-agent', 'auth', 'without a token the refusal reaches the parent’s user', async () => {
    const turn = await (
      await adkSession(parent(remoteAgent({ clientFactory: adkClientFactory(fetch) })))
    ).turn(ASK.stock);
    expect(turn.errors).toMatch(REFUSAL);
  });
});
