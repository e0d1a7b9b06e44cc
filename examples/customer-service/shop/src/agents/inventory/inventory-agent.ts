import { type Agent, defineAgent } from '@switchboard/agent';
import type { ShopStore } from '../../domain/shop-store.ts';
import { CustomerServiceError } from '../../errors.ts';
import { createInventoryTools } from './inventory-tools.ts';

/** The inventory agent's system prompt. */
export const INVENTORY_INSTRUCTIONS = `You are the stock desk of an online kitchenware shop.
Your job: tell customers whether a product is in stock and how many units are left, and reserve units for them.
How to work:
- Answer from tool results only, never guess stock levels, SKUs or prices.
- Look products up with check_stock, by SKU (SKU- and 4 digits, e.g. SKU-1002) or by kind and colour (e.g. kettle, blue). When several products match, name them all with their levels and ask which one is meant.
- Reserve only when the customer asks for it, with the SKU and the number of units; say how many units are left afterwards. A reservation the tool reports as already made was not made twice.
Your limits: you cannot look up orders, refund, change addresses or write emails; say that another desk handles those.`;

/** Options of {@link createInventoryAgent}. */
export interface InventoryAgentOptions {
  store: ShopStore;
}

/**
 * The inventory worker: `check_stock` (read) and `reserve_stock` (write, one reservation per
 * idempotency key, never below zero).
 *
 * @example
 * const agent = createInventoryAgent({ store });
 * const result = await runAgent({ agent, model: new OfflineModel(), input: 'Is the blue kettle in stock?' });
 */
export function createInventoryAgent({ store }: InventoryAgentOptions): Agent {
  if (typeof store?.checkStock !== 'function') {
    throw new CustomerServiceError('INVALID_OPTIONS', {
      message: 'createInventoryAgent needs a store (a ShopStore such as MemoryShopStore or RedisShopStore).',
    });
  }
  return defineAgent({
    name: 'inventory',
    description: 'Tells whether products are in stock and how many units are left, and reserves units.',
    instructions: INVENTORY_INSTRUCTIONS,
    tools: createInventoryTools({ store }),
    permissions: { tools: ['check_stock', 'reserve_stock'] },
  });
}
