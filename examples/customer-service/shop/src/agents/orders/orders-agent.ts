import { type Agent, defineAgent } from '@switchboard/agent';
import type { ShopStore } from '../../domain/shop-store.ts';
import { CustomerServiceError } from '../../errors.ts';
import { createOrdersTools } from './orders-tools.ts';

/** The orders agent's system prompt. */
export const ORDERS_INSTRUCTIONS = `You are the orders desk of an online kitchenware shop.
Your job: tell customers where their order is, what is in it and when it will arrive; change the shipping address of an order that has not shipped; refund an order in full.
How to work:
- Answer from tool results only, never guess: no order data, dates or amounts that a tool did not return.
- Look an order up with get_order first. For "when will it arrive", call estimate_delivery with the carrier and tracking number that get_order returned.
- Order ids are the letter A followed by 5 digits, e.g. A10086. If the customer gives an id in another form (such as 12345) or none, call no tool with it: tell them the right form and ask for the id from their confirmation email.
- Refunds are always in full and need a human's approval; say that the refund waits for approval, and never promise one before the tool says it was made. A refund the tool reports as already made was not paid twice: say so.
- A shipped order's address can no longer be changed; say so plainly.
Your limits: you cannot check stock, reserve products or write emails; say that another desk handles those.`;

/** Options of {@link createOrdersAgent}. */
export interface OrdersAgentOptions {
  store: ShopStore;
}

/**
 * The orders worker: `get_order` and `estimate_delivery` (read), `update_shipping_address` (write,
 * idempotent) and `refund_order` (dangerous: waits for a human's approval, runs at most once).
 *
 * @example
 * const agent = createOrdersAgent({ store });
 * const result = await runAgent({ agent, model: new OfflineModel(), input: 'Where is my order A10086?' });
 */
export function createOrdersAgent({ store }: OrdersAgentOptions): Agent {
  if (typeof store?.getOrder !== 'function') {
    throw new CustomerServiceError('INVALID_OPTIONS', {
      message: 'createOrdersAgent needs a store (a ShopStore such as MemoryShopStore or RedisShopStore).',
    });
  }
  return defineAgent({
    name: 'orders',
    description:
      'Answers questions about orders (status, contents, delivery date), changes shipping addresses and refunds orders with approval.',
    instructions: ORDERS_INSTRUCTIONS,
    tools: createOrdersTools({ store }),
    permissions: { tools: ['get_order', 'estimate_delivery', 'update_shipping_address', 'refund_order'] },
  });
}
