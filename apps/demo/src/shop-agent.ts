import { type Agent, defineAgent, defineTool } from '@switchboard/agent';
import { z } from 'zod';

const OrderId = z
  .string()
  .regex(/^A\d{5}$/, 'must be the letter A and 5 digits, e.g. A10086')
  .describe('The order id, the letter A and 5 digits, e.g. A10086');

interface Order {
  status: 'processing' | 'shipped' | 'delivered';
  carrier: string;
  shippedOn: string | null;
  destination: string;
  total: number;
  items: string[];
}

/** The demo's orders: a small fixture in memory (the services of a later issue keep them in Redis). */
export const ORDERS: Readonly<Record<string, Order>> = {
  A10086: {
    status: 'shipped',
    carrier: 'DHL',
    shippedOn: '2026-11-28',
    destination: 'Berlin, DE',
    total: 59.9,
    items: ['Stainless steel kettle'],
  },
  A10087: {
    status: 'processing',
    carrier: 'UPS',
    shippedOn: null,
    destination: 'Lyon, FR',
    total: 129,
    items: ['Blender', 'Spare jug'],
  },
  A10090: {
    status: 'delivered',
    carrier: 'DPD',
    shippedOn: '2026-11-20',
    destination: 'Vienna, AT',
    total: 18.5,
    items: ['Descaling tablets'],
  },
};

const TRANSIT_DAYS: Readonly<Record<string, number>> = { DHL: 3, UPS: 4, DPD: 2 };

function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function findOrder(orderId: string): Order {
  const order = ORDERS[orderId];
  if (!order) throw new Error(`order ${orderId} not in fixture`);
  return order;
}

/** The single agent of the demo: an orders desk with two read tools and one dangerous one. */
export function createOrdersDesk(): Agent {
  const getOrder = defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id: status, carrier, items, total and destination.',
    whenToUse: 'The customer asks about an order they placed: where it is, what is in it, its status.',
    whenNotToUse: 'The customer asks when it will arrive; use estimate_delivery.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    fallbackMessage:
      'That order could not be found. Ask the customer to check the order id in their confirmation email.',
    handler: ({ orderId }) => ({ orderId, ...findOrder(orderId) }),
  });

  const estimateDelivery = defineTool({
    name: 'estimate_delivery',
    summary: 'Estimate the delivery date of an order from its carrier and shipping date.',
    whenToUse: 'The customer asks when an order will arrive or be delivered.',
    whenNotToUse: 'The customer asks what is in the order; use get_order.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    fallbackMessage: 'No delivery estimate is available for that order right now.',
    handler: ({ orderId }) => {
      const order = findOrder(orderId);
      if (order.status === 'delivered') return { orderId, delivered: true };
      if (!order.shippedOn)
        return { orderId, estimate: 'ships within 2 business days', carrier: order.carrier };
      return {
        orderId,
        carrier: order.carrier,
        estimatedDelivery: addDays(order.shippedOn, TRANSIT_DAYS[order.carrier] ?? 5),
      };
    },
  });

  const refundOrder = defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full to the original payment method.',
    whenToUse: 'The customer asks for a refund or their money back.',
    whenNotToUse: 'The customer only asks about the order status.',
    input: z.object({ orderId: OrderId }),
    risk: 'dangerous',
    idempotent: false,
    describeForApproval: ({ orderId }) => ({
      action: `Refund order ${orderId} in full (${ORDERS[orderId]?.total ?? 'unknown'} EUR) to the original payment method`,
      reversible: false,
    }),
    handler: ({ orderId }) => ({ orderId, refunded: findOrder(orderId).total }),
  });

  return defineAgent({
    name: 'orders-desk',
    description:
      'Answers questions about orders: status, contents, delivery estimates; refunds with approval.',
    instructions:
      'You are the orders desk of an online shop. Answer from tool results only, never guess order data. ' +
      'If the order id is missing, ask for it. Refunds need an operator approval; say so plainly.',
    tools: [getOrder, estimateDelivery, refundOrder],
  });
}
