import { runAgent } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { describe, expect, it } from 'vitest';
import { createInventoryAgent } from '../src/index.ts';
import { ada, grace, now, quiet, seededMemoryStore, toolResults } from './support/shop.ts';

const model = new OfflineModel({ now });

describe('the inventory agent on the offline model', () => {
  it('story 4: checks the stock of the blue kettle and gives its level, to anyone', async () => {
    const agent = createInventoryAgent({ store: await seededMemoryStore() });
    const result = await runAgent({ agent, model, input: 'Is the blue kettle in stock?', ...quiet });
    expect(result.stopReason).toBe('model');
    expect(result.toolCalls.map((call) => [call.tool, call.arguments])).toEqual([
      ['check_stock', { category: 'kettle', colour: 'blue' }],
    ]);
    expect(result.output).toContain('Blue Enamel Kettle');
    expect(result.output).toContain('units in stock: 14');
  });

  it('says a product is out of stock, and lists every match of a vague request', async () => {
    const agent = createInventoryAgent({ store: await seededMemoryStore() });
    const red = await runAgent({ agent, model, input: 'Do you have the red kettle in stock?', ...quiet });
    expect(red.output).toContain('Red Enamel Kettle, units in stock: 0, in stock: no');
    const kettles = await runAgent({ agent, model, input: 'Which kettles are in stock?', ...quiet });
    expect(toolResults(kettles)[0]?.data).toMatchObject({ found: 3 });
  });

  it('reserves units by SKU once, and never more than there are', async () => {
    const store = await seededMemoryStore();
    const agent = createInventoryAgent({ store });
    const reserved = await runAgent({
      agent,
      model,
      input: 'Please reserve 2 units of SKU-1002 for me.',
      principal: ada,
      ...quiet,
    });
    expect(reserved.toolCalls.map((call) => [call.tool, call.arguments])).toEqual([
      ['reserve_stock', { sku: 'SKU-1002', quantity: 2 }],
    ]);
    expect(reserved.output).toContain('units left: 12');
    const tooMany = await runAgent({
      agent,
      model,
      input: 'Please reserve 5 units of SKU-5001.',
      principal: ada,
      ...quiet,
    });
    expect(tooMany.output).toContain('Only 3 units of SKU-5001 are in stock');
    expect((await store.checkStock({ sku: 'SKU-5001' }))[0]?.unitsInStock).toBe(3);
    expect(await store.listReservations()).toHaveLength(1);
  });

  it('one customer cannot drain a product: beyond the default 5 units per product the tool says why, and another customer still can', async () => {
    const store = await seededMemoryStore();
    const agent = createInventoryAgent({ store });
    const ask = (input: string, principal = ada) => runAgent({ agent, model, input, principal, ...quiet });
    expect((await ask('Please reserve 5 units of SKU-1002 for me.')).output).toContain('units left: 9');
    const drained = await ask('Please reserve 9 units of SKU-1002 for me.');
    expect(toolResults(drained)[0]?.data).toMatchObject({
      reserved: 0,
      message: expect.stringContaining('one customer may hold at most 5 units of one product at a time'),
    });
    expect((await store.checkStock({ sku: 'SKU-1002' }))[0]?.unitsInStock).toBe(9);
    expect((await ask('Please reserve 2 units of SKU-1002 for me.', grace)).output).toContain(
      'units left: 7',
    );
  });
});
