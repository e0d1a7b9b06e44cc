import { type AnyTool, defineTool, userText } from '@switchboard/agent';
import { z } from 'zod';
import { estimateDeliveryDate } from '../../domain/delivery-estimate.ts';
import { OrderId } from '../../domain/order-id.ts';
import { orderNotFoundMessage } from '../../domain/shop-access.ts';
import { assertNeverOutcome, isoDay } from '../../domain/shop-outcomes.ts';
import { AddressInput, Carrier, type Order } from '../../domain/shop-records.ts';
import type { ShopStore } from '../../domain/shop-store.ts';
import { type ShopView, shopFor } from '../../domain/shop-view.ts';
import { actionKey, formatMoney } from '../action-key.ts';

/** The answer for an order the caller cannot see: the same whether it is missing or another's. */
const notFound = (shop: ShopView, orderId: string) => ({
  orderId,
  found: false,
  message: orderNotFoundMessage(shop.access, orderId),
});

/** What get_order shows of an order: what a customer asks about, no email or payment details. */
function orderView(order: Order) {
  const { city, country } = order.shippingAddress;
  return {
    orderId: order.id,
    status: order.status,
    placedOn: order.placedOn,
    items: order.items.map(({ sku, name, quantity }) => ({ sku, name, quantity })),
    total: formatMoney({ amount: order.total, currency: order.currency }),
    ...(order.carrier ? { carrier: order.carrier } : {}),
    ...(order.trackingNumber ? { trackingNumber: order.trackingNumber } : {}),
    ...(order.shippedOn ? { shippedOn: order.shippedOn } : {}),
    ...(order.deliveredOn ? { deliveredOn: order.deliveredOn } : {}),
    ...(order.refundedOn ? { refundedOn: isoDay(order.refundedOn) } : {}),
    // The customer wrote the address: whoever's agent reads it gets it marked as data.
    shipTo: userText(`${city}, ${country}`),
  };
}

function getOrderTool(store: ShopStore) {
  return defineTool({
    name: 'get_order',
    summary: 'Look up an order by its id: status, items, total, carrier and tracking number.',
    whenToUse:
      'The customer asks where their order is, what is in it, whether it has shipped or when it will arrive.',
    whenNotToUse: 'The customer wants their money back; use refund_order.',
    input: z.object({ orderId: OrderId }),
    risk: 'read',
    fallbackMessage:
      'The order system is not answering right now. Tell the customer to try again in a few minutes.',
    handler: async ({ orderId }, context) => {
      const shop = shopFor(store, context.principal);
      const order = await shop.getOrder(orderId);
      return order ? orderView(order) : notFound(shop, orderId);
    },
  });
}

function estimateDeliveryTool(store: ShopStore) {
  return defineTool({
    name: 'estimate_delivery',
    summary: 'Estimate the delivery date of a shipped parcel from its carrier and tracking number.',
    whenToUse:
      'The customer asks when a parcel will arrive, once get_order gave its carrier and tracking number.',
    input: z.object({
      orderId: OrderId,
      carrier: Carrier.describe('The carrier of the parcel, as get_order reports it'),
      trackingNumber: z.string().trim().min(1).describe('The tracking number, as get_order reports it'),
    }),
    risk: 'read',
    fallbackMessage: 'No delivery estimate is available right now.',
    handler: async ({ orderId, carrier, trackingNumber }, context) => {
      const shop = shopFor(store, context.principal);
      const order = await shop.getOrder(orderId);
      if (!order) return notFound(shop, orderId);
      if (order.carrier !== carrier || order.trackingNumber !== trackingNumber) {
        return {
          orderId,
          message: `Order ${orderId} was not shipped with ${carrier} under tracking number ${trackingNumber}. Call get_order for its carrier and tracking number.`,
        };
      }
      if (order.status === 'delivered') return { orderId, delivered: true, deliveredOn: order.deliveredOn };
      if (order.status !== 'shipped' || !order.shippedOn) {
        return { orderId, message: `Order ${orderId} is ${order.status}; it is not on its way.` };
      }
      return {
        orderId,
        status: 'in transit',
        estimatedDelivery: estimateDeliveryDate({ carrier, shippedOn: order.shippedOn }),
      };
    },
  });
}

function updateShippingAddressTool(store: ShopStore) {
  return defineTool({
    name: 'update_shipping_address',
    summary: 'Change the shipping address of an order that has not shipped yet.',
    whenToUse: 'The customer wants an order delivered to a different address.',
    input: z.object({ orderId: OrderId, ...AddressInput.shape }),
    risk: 'write',
    idempotent: true,
    fallbackMessage: 'The address could not be changed right now. Tell the customer to try again later.',
    handler: async ({ orderId, ...address }, context) => {
      const result = await shopFor(store, context.principal).updateShippingAddress({
        orderId,
        address,
        idempotencyKey: actionKey(context, { perCall: true }),
      });
      switch (result.outcome) {
        case 'updated': {
          const { name, street, postcode, city, country } = result.shippingAddress;
          return {
            orderId,
            updated: true,
            shipTo: userText(`${name}, ${street}, ${postcode} ${city}, ${country}`),
          };
        }
        case 'order_not_found':
        case 'already_shipped':
          return { orderId, updated: false, message: result.message };
        default:
          return assertNeverOutcome(result);
      }
    },
  });
}

function refundOrderTool(store: ShopStore) {
  return defineTool({
    name: 'refund_order',
    summary: 'Refund an order in full to the original payment method. A human approves it first.',
    whenToUse: 'The customer asks for a refund or their money back for an order, e.g. because it is broken.',
    input: z.object({ orderId: OrderId }),
    risk: 'dangerous',
    idempotent: false,
    describeForApproval: async ({ orderId }, { principal }) => {
      // Looked up as the caller: the approval text must not tell a customer another's total.
      const order = await shopFor(store, principal).getOrder(orderId);
      const amount = order
        ? formatMoney({ amount: order.total, currency: order.currency })
        : 'no such order on the account; nothing will be refunded';
      return {
        action: `Refund order ${orderId} in full (${amount}) to the original payment method`,
        reversible: false,
      };
    },
    fallbackMessage:
      'The refund could not be made right now. Do not try again; tell the customer an operator will check it.',
    handler: async ({ orderId }, context) => {
      const result = await shopFor(store, context.principal).refundOrder({
        orderId,
        idempotencyKey: actionKey(context),
      });
      switch (result.outcome) {
        case 'refunded':
          return {
            orderId,
            refunded: true,
            amount: formatMoney(result.refund),
            refundId: result.refund.refundId,
            refundedOn: isoDay(result.refund.refundedAt),
            ...(result.replayed ? { note: 'This refund had already been made; it was not paid twice.' } : {}),
          };
        case 'already_refunded':
        case 'order_not_found':
          return { orderId, refunded: false, message: result.message };
        default:
          return assertNeverOutcome(result);
      }
    },
  });
}

/** The orders agent's tools, on a store. */
export function createOrdersTools({ store }: { store: ShopStore }): AnyTool[] {
  return [
    getOrderTool(store),
    estimateDeliveryTool(store),
    updateShippingAddressTool(store),
    refundOrderTool(store),
  ];
}
