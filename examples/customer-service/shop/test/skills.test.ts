import { type Agent, defineTool, Toolset } from '@switchboard/agent';
import { buildAgentCard } from '@switchboard/host';
import { OfflineModel } from '@switchboard/offline-model';
import type { SkillSpec } from '@switchboard/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  COMMS_SKILLS,
  createCommsAgent,
  createInventoryAgent,
  createOrdersAgent,
  INVENTORY_SKILLS,
  MemoryShopStore,
  ORDERS_SKILLS,
} from '../src/index.ts';

const store = new MemoryShopStore();
const interfaces = [{ url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC' }];
const model = new OfflineModel();
const workers: [Agent, readonly SkillSpec[]][] = [
  [createOrdersAgent({ store }), ORDERS_SKILLS],
  [createInventoryAgent({ store }), INVENTORY_SKILLS],
  [createCommsAgent({ store, model }), COMMS_SKILLS],
];

/**
 * One delegation tool per skill, written the way `delegationTools` of `@switchboard/a2a` writes them
 * (name `<agent>_<skill>`, the skill's description, its examples, the request in full).
 */
function delegationTools() {
  return workers.flatMap(([agent, skills]) =>
    skills.map((skill) =>
      defineTool({
        name: `${agent.name}_${skill.id}`.replace(/[^a-zA-Z0-9_]+/g, '_'),
        summary: `Ask the ${agent.name} agent (${skill.name}): ${skill.description}`,
        whenToUse: `The customer needs the ${agent.name} agent's ${skill.name.toLowerCase()} skill. Requests like: ${(
          skill.examples ?? []
        )
          .map((example) => `"${example}"`)
          .join('; ')}.`,
        input: z.object({ request: z.string().trim().min(1) }),
        risk: 'write',
        handler: () => null,
      }),
    ),
  );
}

describe('the workers card skills', () => {
  it('make a valid card, each with examples to route by, and each permitted tool belongs to exactly one skill', () => {
    for (const [agent, skills] of workers) {
      // The card builder refuses ids that are not kebab-case, empty descriptions and unknown tools.
      expect(() => buildAgentCard({ agent, skills, interfaces })).not.toThrow();
      for (const skill of skills) expect(skill.examples?.length, skill.id).toBeGreaterThan(0);
      expect(new Set(skills.map((skill) => skill.id)).size).toBe(skills.length);
      const tools = skills.flatMap((skill) => skill.tools);
      expect([...tools].sort()).toEqual([...agent.permitted].sort());
    }
  });

  it.each([
    ['Where is my order A10086 and when will it arrive?', 'orders_order_status'],
    ['Where is my order 12345?', 'orders_order_status'],
    ['Please refund order A10086, the kettle arrived broken.', 'orders_refunds'],
    ['Is the blue kettle in stock?', 'inventory_stock'],
    ["I'm furious, my kettle from order A10086 arrived broken and I need this fixed today!", 'comms_tickets'],
    [
      'Please change the shipping address of order A10087 to Hauptstraße 5, 10115 Berlin.',
      'orders_shipping_address',
    ],
    ['Please send the customer of order A10088 an apology email.', 'comms_customer_email'],
  ])('route "%s" to one delegation, %s, with the request in full', async (request, tool) => {
    const response = await model.generate({
      messages: [{ role: 'user', content: request }],
      tools: new Toolset(delegationTools()).declarations(),
    });
    expect(
      response.message.tool_calls?.map((call) => [call.function.name, JSON.parse(call.function.arguments)]),
    ).toEqual([[tool, { request }]]);
  });
});
