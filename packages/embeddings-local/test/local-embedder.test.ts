import { cosine, defineTool, type Embedder, ToolRouter, Toolset } from '@switchboard/agent';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LocalEmbedder } from '../src/index.ts';

// One model for the whole file: loading it takes about half a second.
const local = new LocalEmbedder();

/** The local embedder, counting the texts it is asked to embed. */
function counting(): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    modelId: local.modelId,
    similarity: local.similarity,
    texts,
    embed: (batch, options) => {
      texts.push(...batch);
      return local.embed(batch, options);
    },
  };
}

const tool = (name: string, summary: string, whenToUse: string) =>
  defineTool({
    name,
    summary,
    whenToUse,
    risk: 'read',
    input: z.object({}),
    handler: () => ({ answeredBy: name }),
  });

/** Six tools of a shop, described as a developer would. */
const shop = () => [
  tool(
    'track_shipment',
    'Track a shipment with the carrier.',
    'The user asks where a delivery is or when it arrives.',
  ),
  tool(
    'refund_order',
    'Refund an order to the original payment method.',
    'The user wants their money back for an order.',
  ),
  tool('reset_password', 'Send a password reset link.', 'The user cannot sign in to their account.'),
  tool(
    'find_store',
    'Find the nearest shop and its opening hours.',
    'The user wants to visit a shop in person.',
  ),
  tool(
    'change_address',
    'Change the delivery address of an order.',
    'The user moved house or gave a wrong address.',
  ),
  tool(
    'cancel_subscription',
    'End a subscription plan.',
    'The user wants to stop paying for a recurring plan.',
  ),
];

describe('LocalEmbedder', () => {
  it('puts each sentence nearest its paraphrase, with no word in common', async () => {
    const pairs = [
      ['where is my parcel', 'my package has not arrived'],
      ['I would like a refund for this', 'can I get my money back'],
      ['I forgot my login', 'cannot get into my profile'],
      ['is there a store near me', 'nearest shop to my house'],
      ['stop billing me every month', 'end my recurring plan'],
    ];
    const sentences = pairs.flat();
    const vectors = await local.embed(sentences);
    expect(vectors).toHaveLength(sentences.length);
    expect(vectors.every((vector) => vector.length === 512)).toBe(true);
    const nearest = vectors.map((vector, i) => {
      const others = vectors.map((other, j) => (j === i ? -1 : cosine(vector, other)));
      return sentences[others.indexOf(Math.max(...others))];
    });
    expect(nearest).toEqual(pairs.flatMap(([a, b]) => [b, a]));
  });

  it('trusts and ranks requests worded unlike the descriptions, where word matching alone does not', async () => {
    const toolset = new Toolset(shop());
    const lexical = new ToolRouter();
    const hybrid = new ToolRouter({ embedder: local });
    const charging = 'stop charging me every month for the plan';
    expect((await lexical.route({ request: charging, toolset })).outcome).toBe('clarify');
    const trusted = await hybrid.route({ request: charging, toolset });
    expect(trusted).toMatchObject({
      outcome: 'routed',
      recall: 'hybrid',
      embeddingModel: 'universal-sentence-encoder-lite',
      thresholds: { recall: 0.35, accept: 0.45 },
    });
    expect(trusted.candidates[0]?.tool).toBe('cancel_subscription');
    const moved = 'I moved, please send it to my new place';
    expect((await lexical.route({ request: moved, toolset })).ranked[0]?.tool).toBe('reset_password');
    expect((await hybrid.route({ request: moved, toolset })).ranked[0]?.tool).toBe('change_address');
  });

  it('declines what no tool does', async () => {
    const decision = await new ToolRouter({ embedder: local }).route({
      request: 'book me a taxi to the airport',
      toolset: new Toolset(shop()),
    });
    expect(decision).toMatchObject({ outcome: 'unsupported', candidates: [] });
  });

  it('embeds each tool once, a tool added at run time once, and a request once per decision', async () => {
    const embedder = counting();
    const router = new ToolRouter({ embedder });
    const toolset = new Toolset(shop());
    // Two decisions at once on a new index, each split into its parts and routed again.
    await Promise.all([
      router.route({ request: 'where is my delivery', toolset }),
      router.route({ request: 'where is my delivery', toolset }),
    ]);
    expect(embedder.texts.filter((text) => text.startsWith('track shipment:'))).toHaveLength(1);
    expect(embedder.texts.filter((text) => text === 'where is my delivery')).toHaveLength(2);
    expect(embedder.texts).toHaveLength(shop().length + 2);
    toolset.add(tool('gift_wrap', 'Gift wrap an order.', 'The user wants a present wrapped.'));
    const decision = await router.route({ request: 'could you wrap it as a present', toolset });
    expect(decision.candidates[0]?.tool).toBe('gift_wrap');
    expect(embedder.texts.slice(shop().length + 2)).toEqual([
      'could you wrap it as a present',
      'gift wrap: Gift wrap an order. The user wants a present wrapped.',
    ]);
  });

  it('refuses a bad batch size, saying what to pass', () => {
    expect(() => new LocalEmbedder({ batchSize: 0 })).toThrow(
      /batchSize 0 must be a whole number from 1 to 1024/,
    );
  });
});
