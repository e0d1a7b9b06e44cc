import { defineTool } from '@switchboard/agent';
import { z } from 'zod';

/** A dangerous, approval-gated refund that counts how often it really ran. */
export function refundTool(refunds: { count: number }) {
  return defineTool({
    name: 'refund_order',
    summary: 'Refund an order.',
    whenToUse: 'Refund requests.',
    input: z.object({ orderId: z.string() }),
    risk: 'dangerous',
    describeForApproval: ({ orderId }) => ({ action: `Refund order ${orderId}`, reversible: false }),
    handler: ({ orderId }) => {
      refunds.count++;
      return { refunded: orderId };
    },
  });
}
