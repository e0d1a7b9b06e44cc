import { CustomerServiceError } from '../errors.ts';
import { matchProducts } from './product-search.ts';
import { limitReached, type ReservationLimits, reservationLimits } from './reservation-limits.ts';
import { newRecordId } from './shop-ids.ts';
import {
  type AddressChangeResult,
  outcomes,
  type QueueEmailResult,
  type RefundResult,
  type ReserveResult,
} from './shop-outcomes.ts';
import type {
  Address,
  Customer,
  Order,
  OutboxEmail,
  Refund,
  Reservation,
  StockLevel,
} from './shop-records.ts';
import type { ReserveInput, ShopData, ShopStore, StockedProduct } from './shop-store.ts';
import { keyReused, toStockLevel } from './store-checks.ts';

/** Options of {@link MemoryShopStore}. */
export interface MemoryShopStoreOptions {
  /** The clock for refund, reservation and email times (default: the system clock). */
  now?: () => Date;
  /** What one holder may keep reserved, and for how long (default `DEFAULT_RESERVATION_LIMITS`). */
  reservationLimits?: Partial<ReservationLimits>;
}

/**
 * The {@link ShopStore} in this process's memory: for one process, evals and tests. Behaves like
 * `RedisShopStore`; every action runs without awaiting in between, so it is atomic in Node.
 *
 * @example
 * const store = new MemoryShopStore();
 * await seedShop({ store });
 */
export class MemoryShopStore implements ShopStore {
  readonly #now: () => Date;
  readonly #orders = new Map<string, Order>();
  readonly #customers = new Map<string, Customer>();
  readonly #products = new Map<string, StockedProduct>();
  readonly #refunds: Refund[] = [];
  readonly #reservations: Reservation[] = [];
  readonly #outbox: OutboxEmail[] = [];
  readonly #addressChanges = new Map<string, { orderId: string; shippingAddress: Address }>();
  readonly #refundKeys = new Map<string, Refund>();
  readonly #reservationKeys = new Map<string, { reservation: Reservation; unitsLeft: number }>();
  readonly #emailKeys = new Map<string, OutboxEmail>();
  /** Reservations not yet expired: their units are out of the stock, and count against their holder. */
  readonly #active: { sku: string; quantity: number; holder: string; expiresAt: number }[] = [];
  readonly #limits: ReservationLimits;

  constructor({ now = () => new Date(), reservationLimits: limits }: MemoryShopStoreOptions = {}) {
    this.#limits = reservationLimits('MemoryShopStore', limits);
    if (typeof now !== 'function') {
      throw new CustomerServiceError('INVALID_OPTIONS', {
        message:
          'MemoryShopStore: now must be a function returning a Date; leave it out for the system clock.',
      });
    }
    this.#now = now;
  }

  async getOrder(orderId: string): Promise<Order | undefined> {
    return structuredClone(this.#orders.get(orderId));
  }

  async getCustomer(customerId: string): Promise<Customer | undefined> {
    return structuredClone(this.#customers.get(customerId));
  }

  async findCustomerByEmail(email: string): Promise<Customer | undefined> {
    const wanted = email.trim().toLowerCase();
    const found = [...this.#customers.values()].find((customer) => customer.email.toLowerCase() === wanted);
    return structuredClone(found);
  }

  async updateShippingAddress({
    orderId,
    address,
    idempotencyKey,
  }: {
    orderId: string;
    address: Address;
    idempotencyKey: string;
  }): Promise<AddressChangeResult> {
    const prior = this.#addressChanges.get(idempotencyKey);
    if (prior) {
      if (prior.orderId !== orderId) throw keyReused('updateShippingAddress', idempotencyKey);
      return { outcome: 'updated', ...structuredClone(prior), replayed: true };
    }
    const order = this.#orders.get(orderId);
    if (!order) return outcomes.orderNotFound(orderId);
    if (order.status !== 'processing') return outcomes.alreadyShipped(orderId, order.status);
    const change = { orderId, shippingAddress: structuredClone(address) };
    this.#orders.set(orderId, { ...order, shippingAddress: structuredClone(address) });
    this.#addressChanges.set(idempotencyKey, change);
    return { outcome: 'updated', ...structuredClone(change), replayed: false };
  }

  async refundOrder({
    orderId,
    idempotencyKey,
  }: {
    orderId: string;
    idempotencyKey: string;
  }): Promise<RefundResult> {
    const prior = this.#refundKeys.get(idempotencyKey);
    if (prior) {
      if (prior.orderId !== orderId) throw keyReused('refundOrder', idempotencyKey);
      return { outcome: 'refunded', refund: structuredClone(prior), replayed: true };
    }
    const order = this.#orders.get(orderId);
    if (!order) return outcomes.orderNotFound(orderId);
    if (order.status === 'refunded') return outcomes.alreadyRefunded(orderId, order.refundedOn ?? '');
    const refundedAt = this.#now().toISOString();
    const refund: Refund = {
      refundId: newRecordId('RF'),
      orderId,
      amount: order.total,
      currency: order.currency,
      refundedAt,
      idempotencyKey,
    };
    this.#orders.set(orderId, { ...order, status: 'refunded', refundedOn: refundedAt });
    this.#refundKeys.set(idempotencyKey, refund);
    this.#refunds.push(refund);
    return { outcome: 'refunded', refund: structuredClone(refund), replayed: false };
  }

  async checkStock({ sku, product }: { sku?: string; product?: string }): Promise<StockLevel[]> {
    this.#release(this.#now().getTime());
    const products = [...this.#products.values()];
    const found = sku ? products.filter((item) => item.sku === sku) : matchProducts(products, product ?? '');
    return found.map(toStockLevel);
  }

  async reserveStock({ sku, quantity, idempotencyKey, holder }: ReserveInput): Promise<ReserveResult> {
    const now = this.#now();
    this.#release(now.getTime());
    const prior = this.#reservationKeys.get(idempotencyKey);
    if (prior) {
      if (prior.reservation.sku !== sku || prior.reservation.quantity !== quantity)
        throw keyReused('reserveStock', idempotencyKey);
      return { outcome: 'reserved', ...structuredClone(prior), replayed: true };
    }
    const product = this.#products.get(sku);
    if (!product) return outcomes.productNotFound(sku);
    if (product.unitsInStock < quantity)
      return outcomes.insufficientStock(sku, quantity, product.unitsInStock);
    const held = this.#active.filter((item) => item.holder === holder);
    const ofProduct = held.filter((item) => item.sku === sku).reduce((sum, item) => sum + item.quantity, 0);
    const inAll = held.reduce((sum, item) => sum + item.quantity, 0);
    const limits = this.#limits;
    if (ofProduct + quantity > limits.unitsPerProduct)
      return limitReached({ sku, requested: quantity, held: ofProduct, scope: 'product', limits });
    if (inAll + quantity > limits.unitsInAll)
      return limitReached({ sku, requested: quantity, held: inAll, scope: 'total', limits });
    const unitsLeft = product.unitsInStock - quantity;
    const expiresAt = now.getTime() + limits.ttlSeconds * 1000;
    const reservation: Reservation = {
      reservationId: newRecordId('RS'),
      sku,
      quantity,
      reservedAt: now.toISOString(),
      idempotencyKey,
      holder,
      expiresAt: new Date(expiresAt).toISOString(),
    };
    this.#active.push({ sku, quantity, holder, expiresAt });
    this.#products.set(sku, { ...product, unitsInStock: unitsLeft });
    this.#reservationKeys.set(idempotencyKey, { reservation, unitsLeft });
    this.#reservations.push(reservation);
    return { outcome: 'reserved', reservation: structuredClone(reservation), unitsLeft, replayed: false };
  }

  /** Puts the units of every reservation expired by `now` (ms) back in the stock. */
  #release(now: number): void {
    for (let i = this.#active.length - 1; i >= 0; i--) {
      const item = this.#active[i];
      if (!item || item.expiresAt > now) continue;
      const product = this.#products.get(item.sku);
      if (product)
        this.#products.set(item.sku, { ...product, unitsInStock: product.unitsInStock + item.quantity });
      this.#active.splice(i, 1);
    }
  }

  async queueEmail({
    to,
    subject,
    body,
    idempotencyKey,
  }: {
    to: string;
    subject: string;
    body: string;
    idempotencyKey: string;
  }): Promise<QueueEmailResult> {
    const prior = this.#emailKeys.get(idempotencyKey);
    if (prior) {
      if (prior.to !== to || prior.subject !== subject || prior.body !== body)
        throw keyReused('queueEmail', idempotencyKey);
      return { outcome: 'queued', email: structuredClone(prior), replayed: true };
    }
    const email: OutboxEmail = {
      emailId: newRecordId('EM'),
      to,
      subject,
      body,
      queuedAt: this.#now().toISOString(),
      idempotencyKey,
    };
    this.#emailKeys.set(idempotencyKey, email);
    this.#outbox.push(email);
    return { outcome: 'queued', email: structuredClone(email), replayed: false };
  }

  async listOutbox(): Promise<OutboxEmail[]> {
    return structuredClone(this.#outbox);
  }

  async listRefunds(): Promise<Refund[]> {
    return structuredClone(this.#refunds);
  }

  async listReservations(): Promise<Reservation[]> {
    return structuredClone(this.#reservations);
  }

  async load({ data, reset }: { data: ShopData; reset: boolean }): Promise<{ inserted: number }> {
    if (reset) this.#clear();
    let inserted = 0;
    const add = <T>(map: Map<string, T>, key: string, value: T) => {
      if (map.has(key)) return;
      map.set(key, structuredClone(value));
      inserted++;
    };
    for (const customer of data.customers) add(this.#customers, customer.id, customer);
    for (const product of data.products) add(this.#products, product.sku, product);
    for (const order of data.orders) add(this.#orders, order.id, order);
    for (const refund of data.refunds) {
      if (this.#refundKeys.has(refund.idempotencyKey)) continue;
      this.#refundKeys.set(refund.idempotencyKey, structuredClone(refund));
      this.#refunds.push(structuredClone(refund));
      inserted++;
    }
    return { inserted };
  }

  #clear(): void {
    for (const map of [
      this.#orders,
      this.#customers,
      this.#products,
      this.#addressChanges,
      this.#refundKeys,
      this.#reservationKeys,
      this.#emailKeys,
    ]) {
      map.clear();
    }
    for (const list of [this.#refunds, this.#reservations, this.#outbox, this.#active]) list.length = 0;
  }
}
