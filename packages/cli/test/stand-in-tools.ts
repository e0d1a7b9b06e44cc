import { type AnyTool, defineTool } from '@switchboard/agent';
import { z } from 'zod';

const OrderId = z.string().regex(/^A\d{5}$/, 'an order id is A and five digits, e.g. A10086');

/** How many lines of an email's body its approval shows under the action. */
const PREVIEW_LINES = 20;

// jscpd:ignore-start
// Stand-ins for an orders agent's tools, as the bundled shop declares them: the platform's tests cannot
// import the example (platform-not-to-examples), so the CLI's tests carry their own.
/**
 * `get_order` (read: every order has shipped with DHL), `refund_order` (dangerous: waits for an
 * approval of "Refund order <id> in full (59.90 EUR)", then tells `onRefund`), `wait_for_warehouse`
 * (read: waits until its task is canceled) and `send_email` (dangerous: its approval shows the first
 * lines of the body, the whole body is in the arguments).
 */
export function standInTools({
  onRefund = () => {},
  onWaitStarted = () => {},
}: {
  onRefund?: (orderId: string) => void;
  onWaitStarted?: () => void;
} = {}): AnyTool[] {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id: status and carrier.',
    whenToUse: 'The user asks about an order.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    handler: ({ orderId }) => ({ orderId, status: 'shipped', carrier: 'DHL' }),
  });
  const refundOrder = defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full.',
    whenToUse: 'The user asks for their money back.',
    input: z.object({ orderId: OrderId }),
    risk: 'dangerous',
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (59.90 EUR)`,
      reversible: false,
    }),
    handler: ({ orderId }) => {
      onRefund(orderId);
      return { refunded: orderId };
    },
  });
  const waitForWarehouse = defineTool({
    name: 'wait_for_warehouse',
    summary: 'Wait until the warehouse confirms the parcel.',
    whenToUse: 'The user asks to wait for the warehouse.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    timeoutMs: 25_000,
    handler: (_input, { signal }) =>
      new Promise((_resolve, reject) => {
        onWaitStarted();
        signal.addEventListener('abort', () => reject(new Error('aborted')));
      }),
  });
  // jscpd:ignore-end
  const sendEmail = defineTool({
    name: 'send_email',
    summary: 'Send an email to a user. A human approves it first.',
    whenToUse: 'An email was written and should now be sent.',
    input: z.object({ to: z.email(), subject: z.string().min(1), body: z.string().min(1) }),
    risk: 'dangerous',
    idempotent: false,
    describeForApproval: ({ to, subject, body }) => {
      const lines = body.split('\n');
      const shown = lines.slice(0, PREVIEW_LINES).join('\n');
      return {
        action: `Send the email "${subject}" to ${to}`,
        reversible: false,
        details:
          lines.length <= PREVIEW_LINES
            ? `Body:\n${body}`
            : `Body (the first ${PREVIEW_LINES} of ${lines.length} lines; the whole body is in the arguments):\n${shown}`,
      };
    },
    handler: ({ to }) => ({ to, queued: true }),
  });
  return [getOrder, refundOrder, waitForWarehouse, sendEmail];
}
