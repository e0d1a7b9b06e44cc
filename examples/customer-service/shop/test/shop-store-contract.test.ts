import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Address,
  isCustomerServiceError,
  RedisShopStore,
  type RefundResult,
  type ShopStore,
  seedShop,
} from '../src/index.ts';
import { connectRedis, type StoreUnderTest, storeFactories } from './support/shop.ts';

const redis = connectRedis();
afterAll(() => redis.quit());

const newAddress: Address = {
  name: 'Grace Hopper',
  street: 'Hauptstraße 5',
  postcode: '10115',
  city: 'Berlin',
  country: 'DE',
};

const refundsOf = async (store: ShopStore, orderId: string) =>
  (await store.listRefunds()).filter((refund) => refund.orderId === orderId);

describe.each(storeFactories(() => redis))('ShopStore contract: $name', ({ create }) => {
  let subject: StoreUnderTest;
  let store: ShopStore;
  beforeEach(async () => {
    subject = await create();
    store = subject.store;
    await seedShop({ store });
  });
  afterEach(() => subject.cleanup());

  it('reads orders, customers and customers by email', async () => {
    const order = await store.getOrder('A10086');
    expect(order).toMatchObject({
      status: 'shipped',
      carrier: 'DHL',
      shippedOn: '2026-11-27',
      total: 59.9,
      currency: 'EUR',
      items: [{ sku: 'SKU-1001', name: 'Stainless Steel Kettle', quantity: 1 }],
    });
    expect(await store.getOrder('A99999')).toBeUndefined();
    expect(await store.getCustomer('C001')).toEqual({
      id: 'C001',
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
    });
    expect((await store.findCustomerByEmail(' ADA.Lovelace@Example.com '))?.id).toBe('C001');
    expect(await store.findCustomerByEmail('nobody@example.com')).toBeUndefined();
  });

  it('changes the address of an unshipped order once per key, and never of a shipped one', async () => {
    const input = { orderId: 'A10087', address: newAddress, idempotencyKey: 'addr-1' };
    const first = await store.updateShippingAddress(input);
    expect(first).toEqual({
      outcome: 'updated',
      orderId: 'A10087',
      shippingAddress: newAddress,
      replayed: false,
    });
    expect((await store.getOrder('A10087'))?.shippingAddress).toEqual(newAddress);
    expect(await store.updateShippingAddress(input)).toEqual({ ...first, replayed: true });

    const shipped = await store.updateShippingAddress({
      ...input,
      orderId: 'A10086',
      idempotencyKey: 'addr-2',
    });
    expect(shipped).toMatchObject({ outcome: 'already_shipped', status: 'shipped' });
    expect(shipped.outcome === 'already_shipped' && shipped.message).toBe(
      'Order A10086 is shipped, so its shipping address can no longer be changed.',
    );
    expect((await store.getOrder('A10086'))?.shippingAddress.city).toBe('Berlin');
    expect(
      await store.updateShippingAddress({ ...input, orderId: 'A99999', idempotencyKey: 'addr-3' }),
    ).toMatchObject({
      outcome: 'order_not_found',
    });
    await expect(store.updateShippingAddress({ ...input, orderId: 'A10091' })).rejects.toSatisfy((error) =>
      isCustomerServiceError(error, 'IDEMPOTENCY_KEY_REUSED'),
    );
  });

  it('refunds an order once: the same key replays, another key is told it was already refunded', async () => {
    const first = await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'refund-1' });
    expect(first).toMatchObject({
      outcome: 'refunded',
      replayed: false,
      refund: { orderId: 'A10086', amount: 59.9, currency: 'EUR', refundedAt: '2026-11-30T10:00:00.000Z' },
    });
    expect(await store.getOrder('A10086')).toMatchObject({
      status: 'refunded',
      refundedOn: '2026-11-30T10:00:00.000Z',
      shippingAddress: { street: 'Invalidenstraße 44', city: 'Berlin' },
      items: [{ sku: 'SKU-1001', unitPrice: 59.9 }],
    });
    const again = await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'refund-1' });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'refund-2' })).toEqual({
      outcome: 'already_refunded',
      orderId: 'A10086',
      refundedOn: '2026-11-30',
      message: 'Order A10086 was already refunded on 2026-11-30; it was not refunded again.',
    });
    expect(await refundsOf(store, 'A10086')).toHaveLength(1);
    expect(await store.refundOrder({ orderId: 'A10089', idempotencyKey: 'refund-3' })).toMatchObject({
      outcome: 'already_refunded',
      refundedOn: '2026-11-20',
    });
    expect(await store.refundOrder({ orderId: 'A99999', idempotencyKey: 'refund-4' })).toMatchObject({
      outcome: 'order_not_found',
    });
    await expect(store.refundOrder({ orderId: 'A10087', idempotencyKey: 'refund-1' })).rejects.toSatisfy(
      (error) => isCustomerServiceError(error, 'IDEMPOTENCY_KEY_REUSED'),
    );
    expect(await refundsOf(store, 'A10087')).toHaveLength(0);
  });

  it('pays exactly one refund when many arrive at once, with different keys or the same one', async () => {
    const racing = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.refundOrder({ orderId: 'A10090', idempotencyKey: `race-${i}` }),
      ),
    );
    expect(racing.filter((result) => result.outcome === 'refunded')).toHaveLength(1);
    expect(racing.filter((result) => result.outcome === 'already_refunded')).toHaveLength(7);
    expect(await refundsOf(store, 'A10090')).toHaveLength(1);

    const sameKey: RefundResult[] = await Promise.all(
      Array.from({ length: 8 }, () => store.refundOrder({ orderId: 'A10093', idempotencyKey: 'one-key' })),
    );
    const ids = new Set(
      sameKey.map((result) => (result.outcome === 'refunded' ? result.refund.refundId : result.outcome)),
    );
    expect(ids.size).toBe(1);
    expect(sameKey.filter((result) => result.outcome === 'refunded' && !result.replayed)).toHaveLength(1);
    expect(await refundsOf(store, 'A10093')).toHaveLength(1);
  });

  it('finds stock by SKU or by product words', async () => {
    expect(await store.checkStock({ sku: 'SKU-1002' })).toEqual([
      expect.objectContaining({
        sku: 'SKU-1002',
        name: 'Blue Enamel Kettle',
        unitsInStock: 14,
        inStock: true,
      }),
    ]);
    expect(
      (await store.checkStock({ product: 'Is the blue kettle in stock?' })).map((level) => level.sku),
    ).toEqual(['SKU-1002']);
    expect((await store.checkStock({ product: 'kettles' })).map((level) => level.sku).sort()).toEqual([
      'SKU-1001',
      'SKU-1002',
      'SKU-1003',
    ]);
    expect(await store.checkStock({ product: 'red kettle' })).toEqual([
      expect.objectContaining({ sku: 'SKU-1003', unitsInStock: 0, inStock: false }),
    ]);
    expect(await store.checkStock({ product: 'umbrella' })).toEqual([]);
    expect(await store.checkStock({ sku: 'SKU-9999' })).toEqual([]);
  });

  it('reserves stock once per key and never below zero', async () => {
    const input = { sku: 'SKU-1002', quantity: 4, idempotencyKey: 'reserve-1', holder: 'user:C001' };
    const first = await store.reserveStock(input);
    expect(first).toMatchObject({
      outcome: 'reserved',
      unitsLeft: 10,
      replayed: false,
      reservation: { quantity: 4 },
    });
    expect(await store.reserveStock(input)).toEqual({ ...first, replayed: true });
    expect((await store.checkStock({ sku: 'SKU-1002' }))[0]?.unitsInStock).toBe(10);

    expect(
      await store.reserveStock({
        sku: 'SKU-1002',
        quantity: 11,
        idempotencyKey: 'reserve-2',
        holder: 'user:C002',
      }),
    ).toEqual({
      outcome: 'insufficient_stock',
      sku: 'SKU-1002',
      requested: 11,
      unitsInStock: 10,
      message: 'Only 10 units of SKU-1002 are in stock, fewer than the 11 asked for; nothing was reserved.',
    });
    expect(
      await store.reserveStock({
        sku: 'SKU-9999',
        quantity: 1,
        idempotencyKey: 'reserve-3',
        holder: 'user:C001',
      }),
    ).toMatchObject({
      outcome: 'product_not_found',
    });
    await expect(store.reserveStock({ ...input, quantity: 5 })).rejects.toSatisfy((error) =>
      isCustomerServiceError(error, 'IDEMPOTENCY_KEY_REUSED'),
    );

    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.reserveStock({
          sku: 'SKU-5001',
          quantity: 1,
          idempotencyKey: `grinder-${i}`,
          holder: `user:C00${i}`,
        }),
      ),
    );
    expect(racing.filter((result) => result.outcome === 'reserved')).toHaveLength(3);
    expect((await store.checkStock({ sku: 'SKU-5001' }))[0]?.unitsInStock).toBe(0);
    expect((await store.listReservations()).filter((item) => item.sku === 'SKU-5001')).toHaveLength(3);
  });

  it('caps what one holder may reserve, per product and in all, and returns expired reservations to the stock', async () => {
    let clock = new Date('2026-11-30T10:00:00.000Z');
    const limited = await create({
      now: () => clock,
      reservationLimits: { unitsPerProduct: 3, unitsInAll: 5, ttlSeconds: 600 },
    });
    try {
      const shop = limited.store;
      await seedShop({ store: shop });
      const reserve = (sku: string, quantity: number, key: string, holder = 'user:C001') =>
        shop.reserveStock({ sku, quantity, idempotencyKey: key, holder });
      expect(await reserve('SKU-1002', 3, 'k1')).toMatchObject({
        outcome: 'reserved',
        unitsLeft: 11,
        reservation: { holder: 'user:C001', expiresAt: '2026-11-30T10:10:00.000Z' },
      });
      expect(await reserve('SKU-1002', 1, 'k2')).toEqual({
        outcome: 'limit_reached',
        sku: 'SKU-1002',
        requested: 1,
        held: 3,
        limit: 3,
        scope: 'product',
        message:
          'Nothing was reserved: this customer already holds 3 units of SKU-1002, and one customer may hold at most 3 units of one product at a time. Reservations end 10 minutes after they are made, and the units go back to the stock.',
      });
      expect(await reserve('SKU-1001', 2, 'k3')).toMatchObject({ outcome: 'reserved' });
      expect(await reserve('SKU-2001', 1, 'k4')).toMatchObject({
        outcome: 'limit_reached',
        scope: 'total',
        held: 5,
        limit: 5,
        message: expect.stringContaining('at most 5 units in all'),
      });
      // Another customer has limits of their own; the drained product is still there for them.
      expect(await reserve('SKU-1002', 3, 'k5', 'user:C002')).toMatchObject({
        outcome: 'reserved',
        unitsLeft: 8,
      });
      // Many at once from one customer never pass the cap.
      const racing = await Promise.all(
        Array.from({ length: 8 }, (_, i) => reserve('SKU-4001', 1, `race-${i}`, 'user:C003')),
      );
      expect(racing.filter((result) => result.outcome === 'reserved')).toHaveLength(3);

      clock = new Date('2026-11-30T10:10:01.000Z');
      const levels = await shop.checkStock({ sku: 'SKU-1002' });
      expect(levels[0]?.unitsInStock).toBe(14);
      expect(await reserve('SKU-1002', 3, 'k6')).toMatchObject({ outcome: 'reserved', unitsLeft: 11 });
    } finally {
      await limited.cleanup();
    }
  });

  it('queues one email per key in the outbox', async () => {
    const email = {
      to: 'ada.lovelace@example.com',
      subject: 'Sorry',
      body: 'Dear Ada, sorry.',
      idempotencyKey: 'email-1',
    };
    const first = await store.queueEmail(email);
    expect(first).toMatchObject({
      outcome: 'queued',
      replayed: false,
      email: { to: email.to, subject: 'Sorry' },
    });
    expect(await store.queueEmail(email)).toEqual({ ...first, replayed: true });
    await store.queueEmail({ ...email, idempotencyKey: 'email-2' });
    expect((await store.listOutbox()).map((item) => item.idempotencyKey)).toEqual(['email-1', 'email-2']);
    await expect(store.queueEmail({ ...email, body: 'Another text' })).rejects.toSatisfy((error) =>
      isCustomerServiceError(error, 'IDEMPOTENCY_KEY_REUSED'),
    );
  });

  it('loads with reset: everything done since is gone, the fixture is back', async () => {
    await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'refund-reset' });
    await store.queueEmail({ to: 'ada.lovelace@example.com', subject: 's', body: 'b', idempotencyKey: 'e' });
    await store.reserveStock({ sku: 'SKU-1002', quantity: 1, idempotencyKey: 'r', holder: 'user:C001' });
    await seedShop({ store, reset: true });
    expect((await store.getOrder('A10086'))?.status).toBe('shipped');
    expect((await store.listRefunds()).map((refund) => refund.orderId)).toEqual(['A10089']);
    expect(await store.listOutbox()).toEqual([]);
    expect(await store.listReservations()).toEqual([]);
    expect((await store.checkStock({ sku: 'SKU-1002' }))[0]?.unitsInStock).toBe(14);
    expect(await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'refund-reset' })).toMatchObject({
      outcome: 'refunded',
      replayed: false,
    });
  });
});

describe('RedisShopStore', () => {
  it('refuses a prefix that cannot be a hash tag, saying what to pass', () => {
    expect(() => new RedisShopStore({ redis, prefix: '{demo}' })).toThrow(
      'RedisShopStore options are not valid: prefix "{demo}" must be 1 to 100 letters, digits or ":_.-", e.g. "demo".',
    );
  });

  it('keeps every key under the hash tag of its prefix, and reports a corrupt record by its key', async () => {
    const prefix = `test:${Date.now()}:${Math.random().toString(36).slice(2)}`;
    const store = new RedisShopStore({ redis, prefix });
    try {
      await seedShop({ store });
      await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'k' });
      const keys = await redis.keys(`*${prefix}*`);
      expect(keys.length).toBeGreaterThan(30);
      expect(keys.every((key) => key.startsWith(`{${prefix}}:shop:`))).toBe(true);
      await redis.set(`{${prefix}}:shop:order:A10087`, '{"id":"A10087"');
      await expect(store.getOrder('A10087')).rejects.toSatisfy(
        (error) => isCustomerServiceError(error, 'CORRUPT_RECORD') && error.message.includes('order:A10087'),
      );
    } finally {
      const keys = await redis.keys(`{${prefix}}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
  });
});
