import type { Address, OrderStatus, OutboxEmail, Refund, Reservation } from './shop-records.ts';

/** How a change of shipping address ended. */
export type AddressChangeResult =
  | { outcome: 'updated'; orderId: string; shippingAddress: Address; replayed: boolean }
  | { outcome: 'order_not_found'; orderId: string; message: string }
  | { outcome: 'already_shipped'; orderId: string; status: OrderStatus; message: string };

/** How a refund ended. Only `refunded` paid money out, and only the first time (`replayed: false`). */
export type RefundResult =
  | { outcome: 'refunded'; refund: Refund; replayed: boolean }
  | { outcome: 'already_refunded'; orderId: string; refundedOn: string; message: string }
  | { outcome: 'order_not_found'; orderId: string; message: string };

/** How a stock reservation ended. */
export type ReserveResult =
  | { outcome: 'reserved'; reservation: Reservation; unitsLeft: number; replayed: boolean }
  | { outcome: 'insufficient_stock'; sku: string; requested: number; unitsInStock: number; message: string }
  | { outcome: 'product_not_found'; sku: string; message: string }
  | {
      outcome: 'limit_reached';
      sku: string;
      requested: number;
      /** Units of this product (`product`) or of all (`total`) the holder holds now. */
      held: number;
      limit: number;
      scope: 'product' | 'total';
      message: string;
    };

/** An email put in the outbox (or found there, for a repeated idempotency key). */
export type QueueEmailResult = { outcome: 'queued'; email: OutboxEmail; replayed: boolean };

/** The day part of an ISO timestamp: `2026-11-30T10:00:00.000Z` → `2026-11-30`. */
export function isoDay(timestamp: string): string {
  return timestamp.slice(0, 10);
}

/** Factories of the outcomes both stores return, so their words are the same. */
export const outcomes = {
  orderNotFound: (orderId: string) => ({
    outcome: 'order_not_found' as const,
    orderId,
    message: `There is no order ${orderId}. Ask the customer to check the order id in their confirmation email.`,
  }),
  alreadyShipped: (orderId: string, status: OrderStatus) => ({
    outcome: 'already_shipped' as const,
    orderId,
    status,
    message: `Order ${orderId} is ${status}, so its shipping address can no longer be changed.`,
  }),
  alreadyRefunded: (orderId: string, refundedAt: string) => ({
    outcome: 'already_refunded' as const,
    orderId,
    refundedOn: isoDay(refundedAt),
    message: `Order ${orderId} was already refunded on ${isoDay(refundedAt)}; it was not refunded again.`,
  }),
  productNotFound: (sku: string) => ({
    outcome: 'product_not_found' as const,
    sku,
    message: `There is no product ${sku}. Check the SKU with check_stock.`,
  }),
  insufficientStock: (sku: string, requested: number, unitsInStock: number) => ({
    outcome: 'insufficient_stock' as const,
    sku,
    requested,
    unitsInStock,
    message: `Only ${unitsInStock} unit${unitsInStock === 1 ? '' : 's'} of ${sku} ${
      unitsInStock === 1 ? 'is' : 'are'
    } in stock, fewer than the ${requested} asked for; nothing was reserved.`,
  }),
} as const;

/** Fails to compile when a union of outcomes gains a case that a `switch` does not handle. */
export function assertNeverOutcome(value: never): never {
  throw new Error(`Unhandled outcome: ${JSON.stringify(value)}`);
}
