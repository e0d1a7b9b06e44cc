import { randomUUID } from 'node:crypto';
import { runAgent } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { NOT_RUN_IN_SHADOW, type ShadowProposal, shadowAgent } from '@switchboard/shadow';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOrdersAgent, RedisShopStore, seedShop } from '../src/index.ts';
import { ada, connectRedis, deletePrefix, grace, now, quiet, toolResults } from './support/shop.ts';

const redis = connectRedis();
afterAll(() => redis.quit());

const model = new OfflineModel({ now });
const address = 'name: Grace Hopper, street: Hauptstraße 5, postcode: 10115, city: Berlin, country: DE';

describe('the orders agent in the shadow, over the Redis shop', () => {
  let prefix: string;
  let store: RedisShopStore;
  let proposals: ShadowProposal[];
  let refundsBefore: unknown[];
  let shadow: ReturnType<typeof shadowAgent>;

  beforeEach(async () => {
    prefix = `test:shadow:${randomUUID()}`;
    store = new RedisShopStore({ redis, prefix, now });
    await seedShop({ store });
    refundsBefore = await store.listRefunds();
    proposals = [];
    shadow = shadowAgent({ agent: createOrdersAgent({ store }), record: (p) => void proposals.push(p) });
  });
  afterEach(() => deletePrefix(redis, prefix));

  it('runs the read tools for real: the answer carries the shop’s data', async () => {
    const result = await runAgent({
      agent: shadow,
      model,
      input: 'Where is my order A10086 and when will it arrive?',
      principal: ada,
      ...quiet,
    });
    expect(result.toolCalls.map((call) => [call.tool, call.status])).toEqual([
      ['get_order', 'succeeded'],
      ['estimate_delivery', 'succeeded'],
    ]);
    expect(result.output).toContain('Stainless Steel Kettle');
    expect(proposals).toEqual([]);
  });

  it('records a refund (dangerous) with its validated arguments, asks no human, and refunds nothing', async () => {
    const result = await runAgent({
      agent: shadow,
      model,
      input: 'Please refund order A10086, the kettle arrived broken.',
      principal: ada,
      ...quiet,
    });
    expect(result.pendingApprovals).toEqual([]);
    expect(result.stopReason).toBe('model');
    expect(proposals).toMatchObject([
      { tool: 'refund_order', risk: 'dangerous', arguments: { orderId: 'A10086' }, principal: ada },
    ]);
    expect(toolResults(result)).toEqual([{ tool: 'refund_order', data: NOT_RUN_IN_SHADOW }]);
    expect(await store.listRefunds()).toEqual(refundsBefore);
    expect((await store.getOrder('A10086'))?.status).toBe('shipped');
  });

  it('records an address change (write) and leaves the order’s address as it was', async () => {
    const before = (await store.getOrder('A10087'))?.shippingAddress;
    const result = await runAgent({
      agent: shadow,
      model,
      input: `Please change the shipping address of order A10087 to ${address}`,
      principal: grace,
      ...quiet,
    });
    expect(result.toolCalls.map((call) => call.tool)).toEqual(['update_shipping_address']);
    expect(proposals).toMatchObject([
      {
        tool: 'update_shipping_address',
        risk: 'write',
        arguments: {
          orderId: 'A10087',
          name: 'Grace Hopper',
          street: 'Hauptstraße 5',
          postcode: '10115',
          city: 'Berlin',
          country: 'DE',
        },
      },
    ]);
    expect((await store.getOrder('A10087'))?.shippingAddress).toEqual(before);
  });

  it('still refuses arguments the schema refuses: nothing is recorded for them', async () => {
    const result = await runAgent({
      agent: shadow,
      model,
      input: 'Please refund order 12345.',
      principal: ada,
      ...quiet,
    });
    expect(proposals).toEqual([]);
    expect(await store.listRefunds()).toEqual(refundsBefore);
    expect(result.pendingApprovals).toEqual([]);
  });
});
