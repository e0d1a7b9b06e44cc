import { defineTool } from '@switchboard/agent';
import { z } from 'zod';

/**
 * The refund of a2a's tests, the one declaration of `refund_order` they share: dangerous, so each
 * call waits for an approval of "Refund order <id> in full (59.90 EUR)", which cannot be undone;
 * `onRefund` is told each time it really runs.
 */
export function refundTool({ onRefund = () => {} }: { onRefund?: () => void } = {}) {
  return defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full.',
    whenToUse: 'The customer asks for their money back.',
    whenNotToUse: 'The customer only asks about the status.',
    input: z.object({ orderId: z.string().regex(/^A\d{5}$/) }),
    risk: 'dangerous',
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (59.90 EUR)`,
      reversible: false,
    }),
    handler: ({ orderId }) => {
      onRefund();
      return { refunded: orderId };
    },
  });
}
