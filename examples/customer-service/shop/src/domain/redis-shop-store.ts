import { type RedisConnection, scanKeys } from '@switchboard/redis';
import type { z } from 'zod';
import { CustomerServiceError } from '../errors.ts';
import { matchProducts } from './product-search.ts';
import { loadCommands, parseJson, parseStored, redisCall } from './redis-records.ts';
import { ShopKeys } from './redis-shop-keys.ts';
import {
  APPEND_ONCE,
  REFUND_ORDER,
  RELEASE_STOCK,
  RESERVE_STOCK,
  UPDATE_ADDRESS,
} from './redis-shop-scripts.ts';
import { limitReached, type ReservationLimits, reservationLimits } from './reservation-limits.ts';
import { newRecordId } from './shop-ids.ts';
import {
  type AddressChangeResult,
  outcomes,
  type QueueEmailResult,
  type RefundResult,
  type ReserveResult,
} from './shop-outcomes.ts';
import {
  Address,
  Customer,
  Order,
  OrderStatus,
  OutboxEmail,
  Product,
  Refund,
  Reservation,
  type StockLevel,
} from './shop-records.ts';
import type { ReserveInput, ShopData, ShopStore, StockedProduct } from './shop-store.ts';
import { keyReused, toStockLevel } from './store-checks.ts';

/** Options of {@link RedisShopStore}. */
export interface RedisShopStoreOptions {
  /** An ioredis connection; the caller owns it (and closes it). The store defines its scripts on it. */
  redis: RedisConnection;
  /**
   * What this shop's keys start with, inside a hash tag: prefix `demo` gives `{demo}:shop:...`.
   * Letters, digits and `:_.-` only.
   */
  prefix: string;
  /** The clock for refund, reservation and email times (default: the system clock). */
  now?: () => Date;
  /** What one holder may keep reserved, and for how long (default `DEFAULT_RESERVATION_LIMITS`). */
  reservationLimits?: Partial<ReservationLimits>;
}

type ScriptReply = [outcome: string, payload: string];
type ScriptCommand = (...keysAndArgs: (string | number)[]) => Promise<ScriptReply>;

const SCRIPTS = {
  switchboardShopRefund: { numberOfKeys: 3, lua: REFUND_ORDER },
  switchboardShopAddress: { numberOfKeys: 2, lua: UPDATE_ADDRESS },
  switchboardShopReserve: { numberOfKeys: 5, lua: RESERVE_STOCK },
  switchboardShopRelease: { numberOfKeys: 2, lua: RELEASE_STOCK },
  switchboardShopAppendOnce: { numberOfKeys: 2, lua: APPEND_ONCE },
} as const;
type ScriptName = keyof typeof SCRIPTS;

const PREFIX = /^[A-Za-z0-9:_.-]{1,100}$/;

/**
 * The {@link ShopStore} in Redis, shared by every replica of every worker. Records are JSON strings
 * under `{<prefix>}:shop:...` (one hash tag, so Redis Cluster keeps them in one slot); refunds,
 * address changes, reservations and emails are single Lua scripts, so concurrent calls cannot
 * refund twice or take stock below zero, and each idempotency key is recorded in the same step as
 * its action.
 *
 * @example
 * const store = new RedisShopStore({ redis: createRedisConnection({ url: redisUrl }), prefix: 'demo' });
 * await seedShop({ store });
 */
export class RedisShopStore implements ShopStore {
  readonly #redis: RedisConnection;
  readonly #keys: ShopKeys;
  readonly #now: () => Date;
  readonly #limits: ReservationLimits;

  constructor({ redis, prefix, now = () => new Date(), reservationLimits: limits }: RedisShopStoreOptions) {
    this.#limits = reservationLimits('RedisShopStore', limits);
    const problems = [
      typeof redis?.defineCommand === 'function' ? undefined : 'redis must be an ioredis connection',
      typeof prefix === 'string' && PREFIX.test(prefix)
        ? undefined
        : `prefix ${JSON.stringify(prefix)} must be 1 to 100 letters, digits or ":_.-", e.g. "demo"`,
      typeof now === 'function' ? undefined : 'now must be a function returning a Date',
    ].filter((problem) => problem !== undefined);
    if (problems.length > 0) {
      throw new CustomerServiceError('INVALID_OPTIONS', {
        message: `RedisShopStore options are not valid: ${problems.join('; ')}.`,
      });
    }
    for (const [name, definition] of Object.entries(SCRIPTS)) redis.defineCommand(name, definition);
    this.#redis = redis;
    this.#keys = new ShopKeys(prefix);
    this.#now = now;
  }

  async getOrder(orderId: string): Promise<Order | undefined> {
    return this.#read(Order, this.#keys.order(orderId));
  }

  async getCustomer(customerId: string): Promise<Customer | undefined> {
    return this.#read(Customer, this.#keys.customer(customerId));
  }

  async findCustomerByEmail(email: string): Promise<Customer | undefined> {
    const customerId = await redisCall('find a customer', () =>
      this.#redis.hget(this.#keys.customerEmails, email.trim().toLowerCase()),
    );
    return customerId === null ? undefined : this.getCustomer(customerId);
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
    const change = JSON.stringify({ orderId, shippingAddress: address });
    const [outcome, payload] = await this.#script(
      'switchboardShopAddress',
      this.#keys.order(orderId),
      this.#keys.idempotency('address', idempotencyKey),
      change,
    );
    switch (outcome) {
      case 'order_not_found':
        return outcomes.orderNotFound(orderId);
      case 'already_shipped':
        return outcomes.alreadyShipped(orderId, parseStored(OrderStatus, payload, 'order status'));
      case 'updated':
      case 'replayed': {
        const stored = parseJson(payload, 'address change') as {
          orderId?: unknown;
          shippingAddress?: unknown;
        };
        if (stored.orderId !== orderId) throw keyReused('updateShippingAddress', idempotencyKey);
        const shippingAddress = parseStored(Address, stored.shippingAddress, 'address change');
        return { outcome: 'updated', orderId, shippingAddress, replayed: outcome === 'replayed' };
      }
      default:
        throw this.#unexpected('updateShippingAddress', outcome);
    }
  }

  async refundOrder({
    orderId,
    idempotencyKey,
  }: {
    orderId: string;
    idempotencyKey: string;
  }): Promise<RefundResult> {
    const [outcome, payload] = await this.#script(
      'switchboardShopRefund',
      this.#keys.order(orderId),
      this.#keys.idempotency('refund', idempotencyKey),
      this.#keys.refunds,
      idempotencyKey,
      this.#now().toISOString(),
      newRecordId('RF'),
    );
    switch (outcome) {
      case 'order_not_found':
        return outcomes.orderNotFound(orderId);
      case 'already_refunded':
        return outcomes.alreadyRefunded(orderId, payload);
      case 'refunded':
      case 'replayed': {
        const refund = parseStored(Refund, parseJson(payload, 'refund'), 'refund');
        if (refund.orderId !== orderId) throw keyReused('refundOrder', idempotencyKey);
        return { outcome: 'refunded', refund, replayed: outcome === 'replayed' };
      }
      default:
        throw this.#unexpected('refundOrder', outcome);
    }
  }

  async checkStock({ sku, product }: { sku?: string; product?: string }): Promise<StockLevel[]> {
    await this.#script(
      'switchboardShopRelease',
      this.#keys.stock,
      this.#keys.activeReservations,
      this.#now().getTime(),
    );
    const skus = sku
      ? [sku]
      : await redisCall('list products', () => this.#redis.smembers(this.#keys.products));
    if (skus.length === 0) return [];
    const [records, units] = await redisCall('read products', () =>
      Promise.all([
        this.#redis.mget(skus.map((item) => this.#keys.product(item))),
        this.#redis.hmget(this.#keys.stock, ...skus),
      ]),
    );
    const stocked: StockedProduct[] = [];
    records.forEach((raw, index) => {
      if (raw === null) return;
      const item = parseStored(Product, parseJson(raw, 'product'), 'product');
      stocked.push({ ...item, unitsInStock: Number(units[index] ?? 0) });
    });
    stocked.sort((a, b) => a.sku.localeCompare(b.sku));
    const found = sku ? stocked : matchProducts(stocked, product ?? '');
    return found.map(toStockLevel);
  }

  async reserveStock({ sku, quantity, idempotencyKey, holder }: ReserveInput): Promise<ReserveResult> {
    const now = this.#now();
    const limits = this.#limits;
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
    const [outcome, payload] = await this.#script(
      'switchboardShopReserve',
      this.#keys.stock,
      this.#keys.idempotency('reserve', idempotencyKey),
      this.#keys.reservations,
      this.#keys.activeReservations,
      this.#keys.held(holder),
      sku,
      quantity,
      JSON.stringify(reservation),
      now.getTime(),
      expiresAt,
      limits.unitsPerProduct,
      limits.unitsInAll,
      JSON.stringify({ id: reservation.reservationId, sku, quantity }),
      limits.ttlSeconds + 60,
    );
    switch (outcome) {
      case 'limit_product':
      case 'limit_total':
        return limitReached({
          sku,
          requested: quantity,
          held: Number(payload),
          scope: outcome === 'limit_product' ? 'product' : 'total',
          limits,
        });
      case 'product_not_found':
        return outcomes.productNotFound(sku);
      case 'insufficient_stock':
        return outcomes.insufficientStock(sku, quantity, Number(payload));
      case 'reserved':
      case 'replayed': {
        const stored = parseJson(payload, 'reservation') as {
          unitsLeft?: unknown;
          reservation?: unknown;
        };
        const kept = parseStored(Reservation, stored.reservation, 'reservation');
        if (kept.sku !== sku || kept.quantity !== quantity) throw keyReused('reserveStock', idempotencyKey);
        return {
          outcome: 'reserved',
          reservation: kept,
          unitsLeft: Number(stored.unitsLeft),
          replayed: outcome === 'replayed',
        };
      }
      default:
        throw this.#unexpected('reserveStock', outcome);
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
    const email: OutboxEmail = {
      emailId: newRecordId('EM'),
      to,
      subject,
      body,
      queuedAt: this.#now().toISOString(),
      idempotencyKey,
    };
    const [outcome, payload] = await this.#script(
      'switchboardShopAppendOnce',
      this.#keys.idempotency('email', idempotencyKey),
      this.#keys.outbox,
      JSON.stringify(email),
    );
    const kept = parseStored(OutboxEmail, parseJson(payload, 'email'), 'email');
    if (kept.to !== to || kept.subject !== subject || kept.body !== body)
      throw keyReused('queueEmail', idempotencyKey);
    return { outcome: 'queued', email: kept, replayed: outcome === 'replayed' };
  }

  async listOutbox(): Promise<OutboxEmail[]> {
    return this.#list(OutboxEmail, this.#keys.outbox, 'email');
  }

  async listRefunds(): Promise<Refund[]> {
    return this.#list(Refund, this.#keys.refunds, 'refund');
  }

  async listReservations(): Promise<Reservation[]> {
    return this.#list(Reservation, this.#keys.reservations, 'reservation');
  }

  async load({ data, reset }: { data: ShopData; reset: boolean }): Promise<{ inserted: number }> {
    if (reset) await this.#clear();
    const keys = this.#keys;
    const { commands, inserts } = loadCommands(keys, data);
    const results = await redisCall('load the shop', () => this.#redis.multi(commands).exec());
    // exec() reports a failed command in its results instead of rejecting.
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (!results || failed) {
      throw new CustomerServiceError('STORE_UNAVAILABLE', {
        message: `Redis refused to load the shop: ${failed?.message ?? 'the transaction was aborted'}.`,
        cause: failed,
      });
    }
    let inserted = inserts.filter((index) => results[index]?.[1] === 'OK').length;
    for (const refund of data.refunds) {
      const [outcome] = await this.#script(
        'switchboardShopAppendOnce',
        keys.idempotency('refund', refund.idempotencyKey),
        keys.refunds,
        JSON.stringify(refund),
      );
      if (outcome === 'appended') inserted++;
    }
    return { inserted };
  }

  /** Removes every key of this shop (SCAN, then DEL in batches). */
  async #clear(): Promise<void> {
    await redisCall('reset the shop', async () => {
      for await (const found of scanKeys(this.#redis, `${this.#keys.base}:*`, 500)) {
        if (found.length > 0) await this.#redis.del(...found);
      }
    });
  }

  async #read<T>(schema: z.ZodType<T>, key: string): Promise<T | undefined> {
    const raw = await redisCall('read a record', () => this.#redis.get(key));
    return raw === null ? undefined : parseStored(schema, parseJson(raw, key), key);
  }

  async #list<T>(schema: z.ZodType<T>, key: string, what: string): Promise<T[]> {
    const raw = await redisCall(`list ${what}s`, () => this.#redis.lrange(key, 0, -1));
    return raw.map((item) => parseStored(schema, parseJson(item, what), what));
  }

  async #script(name: ScriptName, ...keysAndArgs: (string | number)[]): Promise<ScriptReply> {
    const command = (this.#redis as unknown as Record<ScriptName, ScriptCommand>)[name].bind(this.#redis);
    return redisCall(name, () => command(...keysAndArgs));
  }

  #unexpected(action: string, outcome: string): CustomerServiceError {
    return new CustomerServiceError('CORRUPT_RECORD', {
      message: `The ${action} script answered with an unknown outcome "${outcome}".`,
    });
  }
}
