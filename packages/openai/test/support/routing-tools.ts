import { type AnyTool, defineTool } from '@switchboard/agent';
import { z } from 'zod';

/*
 * The agent runtime's routing fixture (packages/agent/test/support/routing-tools.ts), written again on
 * purpose: the router's tests there and its embedding recall here read the same dozen tools, and one
 * package's tests cannot import another's test support.
 */
// jscpd:ignore-start

const OrderId = z.string().regex(/^A\d{5}$/, 'must be the letter A and 5 digits, e.g. A10086');

/** A read tool that answers with its own name, so a test sees which one ran. */
function lookup(name: string, summary: string, whenToUse: string, whenNotToUse?: string): AnyTool {
  return defineTool({
    name,
    summary,
    whenToUse,
    ...(whenNotToUse ? { whenNotToUse } : {}),
    input: z.object({ orderId: OrderId.optional() }),
    risk: 'read',
    handler: () => ({ answeredBy: name }),
  });
}

/** A shop's dozen tools, three of which "look something up" and two of which are a word apart. */
export function shopTools(): AnyTool[] {
  return [
    lookup(
      'get_order',
      'Look up an order: its status, items and total.',
      'The customer asks where an order is, what is in it or what it cost.',
      'They ask where the parcel is on the road; use track_shipment.',
    ),
    lookup(
      'track_shipment',
      'Track the parcel of a shipped order with the carrier: location and delivery estimate.',
      'The customer asks where the parcel or package is, or when the delivery arrives.',
    ),
    lookup(
      'get_invoice',
      'Look up the invoice of an order as a PDF link.',
      'The customer wants an invoice, a receipt or a bill for an order.',
    ),
    lookup(
      'cancel_order',
      'Cancel an order that has not shipped yet.',
      'The customer wants to cancel an order before it ships.',
    ),
    lookup(
      'cancel_subscription',
      'Cancel a subscription plan, effective at the end of the billing period.',
      'The customer wants to stop a subscription, a membership or a recurring plan.',
    ),
    lookup(
      'refund_order',
      'Refund an order to the original payment method.',
      'The customer wants their money back for an order.',
    ),
    lookup(
      'check_stock',
      'Check whether a product is in stock in the warehouse.',
      'The customer asks if an item is available or when it is back in stock.',
    ),
    lookup(
      'update_address',
      'Change the delivery address of an order that has not shipped.',
      'The customer moved or gave a wrong address for delivery.',
    ),
    lookup(
      'reset_password',
      'Send a password reset link to the account email.',
      'The customer cannot log in or forgot their password.',
    ),
    lookup(
      'apply_coupon',
      'Apply a discount coupon code to an open order.',
      'The customer has a voucher, promo or coupon code.',
    ),
    lookup(
      'open_return',
      'Open a return for items of a delivered order and email a return label.',
      'The customer wants to send an item back.',
    ),
    lookup(
      'contact_human',
      'Hand the conversation to a human agent of the support team.',
      'The customer asks for a person, a human or a supervisor.',
    ),
  ];
}
// jscpd:ignore-end
