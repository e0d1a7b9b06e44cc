import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentError, defineTool, ToolRouter, Toolset } from '../src/index.ts';
import { shopTools } from './support/routing-tools.ts';

// The router in the agent loop, with a model behind it, is tested beside that model
// (packages/offline-model/test/tool-router.test.ts, packages/openai/test/openai-embedder.test.ts).

describe('ToolRouter over a toolset', () => {
  it('follows a toolset that gains a tool in place', async () => {
    const router = new ToolRouter();
    const toolset = new Toolset(shopTools());
    expect((await router.route({ request: 'wrap it as a gift', toolset })).outcome).toBe('unsupported');
    toolset.add(
      defineTool({
        name: 'add_gift_wrap',
        summary: 'Gift wrap an order.',
        risk: 'read',
        whenToUse: 'The customer wants an order wrapped as a present or gift.',
        input: z.object({}),
        handler: () => ({}),
      }),
    );
    const decision = await router.route({ request: 'wrap it as a gift', toolset });
    expect(decision).toMatchObject({ outcome: 'routed', indexedTools: 13 });
    expect(decision.candidates[0]?.tool).toBe('add_gift_wrap');
  });

  it('does not trust a request that as many tools as it would offer match about equally', async () => {
    const cancel = (thing: string) =>
      defineTool({
        name: `cancel_${thing}`,
        summary: `Cancel a ${thing}.`,
        whenToUse: `The customer wants to cancel a ${thing}.`,
        input: z.object({}),
        risk: 'write',
        handler: () => ({}),
      });
    const toolset = new Toolset([cancel('order'), cancel('subscription'), cancel('booking')]);
    const router = new ToolRouter({ topK: 3 });
    const crowded = await router.route({ request: 'I want to cancel', toolset });
    expect(crowded).toMatchObject({ outcome: 'clarify', ties: 3 });
    const narrowed = await router.route({ request: 'I want to cancel my subscription', toolset });
    expect(narrowed.outcome).toBe('routed');
    expect(narrowed.candidates[0]?.tool).toBe('cancel_subscription');
  });
});

describe('ToolRouter rules and options', () => {
  it('a rule for an obvious intent offers its tools only, and names itself in the decision', async () => {
    const router = new ToolRouter({
      rules: [{ name: 'human-please', pattern: /\b(human|person|agent)\b/i, tools: ['contact_human'] }],
    });
    const decision = await router.route({
      request: 'can I talk to a person',
      toolset: new Toolset(shopTools()),
    });
    expect(decision).toMatchObject({ outcome: 'routed', rule: 'human-please' });
    expect(decision.candidates.map((candidate) => candidate.tool)).toEqual(['contact_human']);
  });

  it('refuses a bad configuration, saying what is wrong and how to fix it', () => {
    const build = () =>
      new ToolRouter({
        recallThreshold: 1.5,
        acceptThreshold: 0.1,
        topK: 0,
        rules: [{ name: 'x', pattern: /x/g, tools: [] }],
      });
    expect(build).toThrow(AgentError);
    expect(build).toThrow(/recallThreshold 1.5 must be a number from 0 to 1/);
    expect(build).toThrow(/topK 0 must be a whole number from 1 to 128/);
    expect(build).toThrow(/must not use the g or y flag/);
    expect(build).toThrow(/tools must name at least one tool/);
    expect(() => new ToolRouter({ recallThreshold: 0.6, acceptThreshold: 0.3 })).toThrow(
      /acceptThreshold 0.3 is below recallThreshold 0.6/,
    );
    expect(() => new ToolRouter({ recall: 'hybrid' })).toThrow(/recall "hybrid" needs an embedder/);
    const embedder = { modelId: 'm', embed: async () => [], similarity: { unrelated: 0.8, related: 0.2 } };
    expect(() => new ToolRouter({ embedder, embeddingWeight: 2 })).toThrow(
      /embeddingWeight 2 must be a number from 0 to 1.*embedder.similarity must have unrelated below related/,
    );
  });
});
