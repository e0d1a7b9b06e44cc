import { type AnyTool, defineTool } from '@switchboard/agent';
import { z } from 'zod';
import { OrderId } from '../domain/order-id.ts';

/** Options of {@link shopTestTools}. */
export interface ShopTestToolsOptions {
  /** Told each time `refund_order` really runs (after its approval), with the order's id. */
  onRefund?: (orderId: string) => void;
  /** Told when `wait_for_warehouse` starts waiting. */
  onWaitStarted?: () => void;
  /** Told when `wait_for_warehouse` is aborted (its task was canceled). */
  onWaitAborted?: () => void;
}

/**
 * Stand-ins for the orders agent's tools, for tests of what hosts and drives an agent (approvals,
 * cancels, the CLI) rather than of the shop itself; they hold no shop data:
 * - `get_order` (read): every order has shipped with DHL;
 * - `refund_order` (dangerous): waits for an approval of "Refund order <id> in full (59.90 EUR)",
 *   then tells `onRefund`;
 * - `wait_for_warehouse` (read): waits until its task is canceled.
 *
 * @example
 * const refunds: string[] = [];
 * const agent = defineAgent({
 *   name: 'orders',
 *   instructions: 'Help with orders.',
 *   tools: shopTestTools({ onRefund: (orderId) => refunds.push(orderId) }),
 * });
 */
export function shopTestTools({
  onRefund = () => {},
  onWaitStarted = () => {},
  onWaitAborted = () => {},
}: ShopTestToolsOptions = {}): AnyTool[] {
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
        signal.addEventListener('abort', () => {
          onWaitAborted();
          reject(new Error('aborted'));
        });
      }),
  });
  return [getOrder, refundOrder, waitForWarehouse];
}
