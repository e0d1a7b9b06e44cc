import type { AddressChangeResult, QueueEmailResult, RefundResult, ReserveResult } from './shop-outcomes.ts';
import type {
  Address,
  Customer,
  Order,
  OutboxEmail,
  Product,
  Refund,
  Reservation,
  StockLevel,
} from './shop-records.ts';

/** What {@link ShopStore.reserveStock} takes. */
export interface ReserveInput {
  sku: string;
  quantity: number;
  idempotencyKey: string;
  /** Whom the units are for (`user:C001`): whose limits they count against. */
  holder: string;
}

/** A product with its stock, as a fixture or {@link ShopStore.load} gives it. */
export type StockedProduct = Product & { unitsInStock: number };

/** Everything a shop holds, as loaded by {@link ShopStore.load}. */
export interface ShopData {
  customers: readonly Customer[];
  products: readonly StockedProduct[];
  orders: readonly Order[];
  refunds: readonly Refund[];
}

/**
 * The shop's data and its actions, as the worker agents use them. Adapters: `RedisShopStore`
 * (shared by every replica) and `MemoryShopStore` (one process, evals, tests). Both behave the same;
 * one contract test suite runs against both.
 *
 * Actions take an `idempotencyKey`: the same key twice is one action with one result (the second
 * call returns it with `replayed: true`). Pass the tool context's key, so a retried or recovered job
 * never acts twice. Reusing a key for a different order, product or email throws
 * `IDEMPOTENCY_KEY_REUSED`.
 */
export interface ShopStore {
  /** The order, or undefined when there is none with that id. */
  getOrder(orderId: string): Promise<Order | undefined>;
  /** The customer, or undefined when there is none with that id. */
  getCustomer(customerId: string): Promise<Customer | undefined>;
  /** The customer with that email address (compared case-insensitively), or undefined. */
  findCustomerByEmail(email: string): Promise<Customer | undefined>;
  /** Changes the shipping address of an order that has not shipped yet. Idempotent per key. */
  updateShippingAddress(input: {
    orderId: string;
    address: Address;
    idempotencyKey: string;
  }): Promise<AddressChangeResult>;
  /**
   * Refunds an order in full, atomically and at most once: the same key returns the first result
   * with `replayed: true`; another key on a refunded order returns `already_refunded` and pays nothing.
   */
  refundOrder(input: { orderId: string; idempotencyKey: string }): Promise<RefundResult>;
  /**
   * Stock levels of the products that match: the one with `sku`, else those whose name, colour and
   * category share the most words with `product` (e.g. "blue kettle"). Empty when nothing matches.
   */
  checkStock(query: { sku?: string; product?: string }): Promise<StockLevel[]>;
  /**
   * Sets units aside for `holder`, atomically: never takes stock below zero, nor a holder beyond
   * their `ReservationLimits` (`limit_reached`); the units go back to the stock when the
   * reservation expires. Idempotent per key.
   */
  reserveStock(input: ReserveInput): Promise<ReserveResult>;
  /** Puts an email in the outbox; the same key is one email. */
  queueEmail(input: {
    to: string;
    subject: string;
    body: string;
    idempotencyKey: string;
  }): Promise<QueueEmailResult>;
  /** Every email in the outbox, oldest first. */
  listOutbox(): Promise<OutboxEmail[]>;
  /** Every refund paid out, oldest first. */
  listRefunds(): Promise<Refund[]>;
  /** Every stock reservation, oldest first. */
  listReservations(): Promise<Reservation[]>;
  /**
   * Loads shop data. Records that already exist are left as they are (so loading twice changes
   * nothing); with `reset: true` everything of this store is removed first. Returns how many
   * records were written.
   */
  load(input: { data: ShopData; reset: boolean }): Promise<{ inserted: number }>;
}
