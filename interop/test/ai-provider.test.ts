import { a2a } from 'a2a-ai-provider';
import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import {
  ANSWER_START,
  ASK,
  expectAnswerOnce,
  fetchWithToken,
  peerTest,
  REFUSAL,
  supervisor,
} from './support/peer-test.ts';
import type { Task03 } from './support/v03-shapes.ts';

const { cardUrl, token } = supervisor();
/** The provider's model id is the card's URL. */
const model = a2a(cardUrl);

beforeAll(() => {
  // The provider takes no fetch or headers of its own: its users put a fetch that sends the token in
  // the global's place. It also prints every event with console.log; silenced here, not changed.
  vi.stubGlobal('fetch', fetchWithToken(token));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterAll(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a2a-ai-provider with the AI SDK', () => {
  peerTest('ai-provider', 'card', 'reads the card at the URL it is given', async () => {
    const { text } = await generateText({ model, prompt: ASK.stock });
    expect(text).not.toBe('');
  });

  peerTest(
    'ai-provider',
    'send',
    'generateText: the text is the answer once, the task completed',
    async () => {
      const result = await generateText({ model, prompt: ASK.stock });
      expect((result.response.body as Task03).status.state).toBe('completed');
      expect(result.finishReason).toBe('stop');
      expectAnswerOnce(result.text, ANSWER_START.stock);
    },
  );

  peerTest(
    'ai-provider',
    'stream',
    'streamText: the text is the answer once, no progress glued on',
    async () => {
      const result = streamText({ model, prompt: ASK.stock });
      let text = '';
      for await (const delta of result.textStream) text += delta;
      expect(await result.finishReason).toBe('stop');
      expectAnswerOnce(text, ANSWER_START.stock);
    },
  );

  peerTest(
    'ai-provider',
    'follow-up',
    'the context id as a provider option continues the context',
    async () => {
      const first = await generateText({ model, prompt: ASK.stock });
      const { contextId } = first.response.body as Task03;
      const second = await generateText({
        model,
        prompt: ASK.order,
        providerOptions: { a2a: { contextId } },
      });
      expect((second.response.body as Task03).contextId).toBe(contextId);
      expectAnswerOnce(second.text, ANSWER_START.order);
    },
  );

  peerTest('ai-provider', 'auth', 'without a token generateText is refused with the reason', async () => {
    vi.unstubAllGlobals();
    await expect(generateText({ model, prompt: ASK.stock, maxRetries: 0 })).rejects.toThrow(REFUSAL);
  });
});
