import { z } from 'zod';
import { defineTool } from '../../src/index.ts';

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

/** A refund: dangerous, not idempotent. Counts how often it really ran. */
export function refundTool(counter: { runs: number } = { runs: 0 }) {
  return defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full to the original payment method.',
    whenToUse: 'The user asks for their money back and the order qualifies.',
    input: z.object({ orderId: OrderId }),
    risk: 'dangerous',
    idempotent: false,
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (${orders[orderId]?.total ?? '?'} EUR)`,
      reversible: false,
    }),
    handler: ({ orderId }) => {
      counter.runs++;
      return { refunded: orderId };
    },
  });
}
