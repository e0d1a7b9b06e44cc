import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CostMeter,
  costOf,
  defineAgent,
  defineTool,
  MAX_COST_AGENTS,
  OTHER_AGENTS,
  RequestCost,
  runAgent,
  silentLogger,
} from '../src/index.ts';
import { ScriptedModel } from '../src/testing/index.ts';

/** What a delegate reported for its part: two agents, known figures. */
const subtree = costOf([
  { agent: 'orders', tokensIn: 40, tokensOut: 9, modelMs: 12, toolMs: 3, queueWaitMs: 5, hops: 1 },
  { agent: 'comms', tokensIn: 7, tokensOut: 2, modelMs: 4, toolMs: 0, queueWaitMs: 1, hops: 1 },
]);

function supervisor() {
  const ask = defineTool({
    name: 'ask_orders',
    summary: 'Ask the orders agent.',
    whenToUse: 'Order questions.',
    input: z.object({ request: z.string() }),
    risk: 'read',
    handler: ({ request }, context) => {
      context.reportCost?.(subtree);
      return { answer: `orders says: ${request} has shipped` };
    },
  });
  return defineAgent({ name: 'supervisor', instructions: 'Delegate.', tools: [ask] });
}

describe('the cost of a run', () => {
  it('sums the model usage and step times of the run, its tool times, and what its tools handed on', async () => {
    const model = new ScriptedModel({
      turns: [
        {
          toolCalls: [{ name: 'ask_orders', arguments: { request: 'A10086' } }],
          usage: { promptTokens: 100, completionTokens: 10 },
        },
        { text: 'It has shipped.', usage: { promptTokens: 130, completionTokens: 6 } },
      ],
    });
    const meter = new CostMeter({ agent: 'supervisor', queueWaitMs: 2.6 });
    const result = await runAgent({
      agent: supervisor(),
      model,
      input: 'Where is A10086?',
      logger: silentLogger(),
      onEvent: (event) => meter.observe(event),
    });
    expect(result.output).toBe('It has shipped.');
    const cost = meter.cost;
    expect(RequestCost.parse(cost)).toEqual(cost);
    const stepMs = result.steps.reduce((sum, step) => sum + step.durationMs, 0);
    const toolMs = result.toolCalls.reduce((sum, call) => sum + call.durationMs, 0);
    expect(cost.agents).toEqual([
      { agent: 'supervisor', tokensIn: 230, tokensOut: 16, modelMs: stepMs, toolMs, queueWaitMs: 3, hops: 1 },
      ...subtree.agents,
    ]);
    expect(cost.total).toEqual({
      tokensIn: 230 + 47,
      tokensOut: 16 + 11,
      modelMs: stepMs + 16,
      toolMs: toolMs + 3,
      queueWaitMs: 3 + 6,
      hops: 3,
    });
  });

  it('adds the hops of one agent into one entry', () => {
    const twice = costOf([...subtree.agents, ...subtree.agents]);
    expect(twice.agents.map((entry) => [entry.agent, entry.hops, entry.tokensIn])).toEqual([
      ['orders', 2, 80],
      ['comms', 2, 14],
    ]);
    expect(twice.total.tokensIn).toBe(94);
  });

  it('adds up the agents past its limit as one entry, so the total still holds everything', () => {
    const many = Array.from({ length: MAX_COST_AGENTS + 6 }, (_, i) => ({ ...first(), agent: `agent-${i}` }));
    const cost = costOf(many);
    expect(RequestCost.safeParse(cost).success).toBe(true);
    expect(cost.agents).toHaveLength(MAX_COST_AGENTS);
    expect(cost.agents.at(-1)).toMatchObject({ agent: OTHER_AGENTS, hops: 7 });
    expect(cost.total.hops).toBe(MAX_COST_AGENTS + 6);
  });

  it('refuses a cost whose total is not its entries’ sum, or whose figures are absurd', () => {
    expect(RequestCost.safeParse({ ...subtree, total: { ...subtree.total, tokensIn: 1 } }).success).toBe(
      false,
    );
    const [first] = subtree.agents;
    if (!first) throw new Error('no entry');
    for (const bad of [{ tokensIn: -1 }, { tokensOut: 1.5 }, { modelMs: 1e15 }, { agent: '' }]) {
      expect(
        RequestCost.safeParse(costOfUnchecked([{ ...first, ...bad }])).success,
        JSON.stringify(bad),
      ).toBe(false);
    }
    expect(RequestCost.safeParse(costOfUnchecked([first, first])).success).toBe(false);
  });
});

function first() {
  const [entry] = subtree.agents;
  if (!entry) throw new Error('no entry');
  return entry;
}

/** A cost as a peer might send it: the total summed, nothing checked. */
function costOfUnchecked(agents: Record<string, unknown>[]) {
  const keys = ['tokensIn', 'tokensOut', 'modelMs', 'toolMs', 'queueWaitMs', 'hops'];
  return {
    agents,
    total: Object.fromEntries(
      keys.map((key) => [key, agents.reduce((sum, entry) => sum + Number(entry[key]), 0)]),
    ),
  };
}
