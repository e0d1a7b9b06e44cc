import { defineTool } from '@switchboard/agent';
import { z } from 'zod';

/*
 * The order lookup of the agent runtime's test fixture (packages/agent/test/support/shop-tools.ts),
 * written again on purpose: one package's tests cannot import another's test support.
 */
// jscpd:ignore-start

/** Order ids as the shop writes them; the message is what a model and a user read on a mistake. */
export const OrderId = z.string().regex(/^A\d{5}$/, 'must be the letter A and 5 digits, e.g. A10086');

export const orders: Record<string, { status: string; carrier: string; total: number }> = {
  A10086: { status: 'shipped', carrier: 'DHL', total: 59.9 },
  A20001: { status: 'processing', carrier: 'UPS', total: 12.5 },
};

export const getOrder = defineTool({
  name: 'get_order',
  summary: 'Look up an order by its id: status, carrier and total.',
  whenToUse: 'The user asks about an order they placed.',
  whenNotToUse: 'The user asks about stock; use check_stock.',
  input: z.object({ orderId: OrderId }),
  risk: 'read',
  handler: ({ orderId }) => orders[orderId] ?? { found: false },
});
// jscpd:ignore-end
