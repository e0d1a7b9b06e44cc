import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bundledShopFixture,
  isCustomerServiceError,
  type MemoryShopStore,
  ShopFixture,
  type ShopStore,
  seedShop,
} from '../src/index.ts';
import { connectRedis, type StoreUnderTest, storeFactories } from './support/shop.ts';

const redis = connectRedis();
afterAll(() => redis.quit());

/** The bundled fixture with one change made by `edit`. */
function brokenFixture(edit: (fixture: ShopFixture) => void): unknown {
  const fixture = structuredClone(bundledShopFixture()) as ShopFixture;
  edit(fixture);
  return fixture;
}

async function seedError(store: ShopStore, fixture: unknown): Promise<Error> {
  try {
    await seedShop({ store, fixture });
  } catch (error) {
    if (isCustomerServiceError(error, 'INVALID_FIXTURE')) return error;
    throw error;
  }
  throw new Error('seedShop accepted a malformed fixture');
}

describe('the bundled shop fixture', () => {
  it('is valid and holds the demo order, the blue kettle and an out-of-stock product', () => {
    const shop = ShopFixture.parse(bundledShopFixture());
    expect(shop.customers).toHaveLength(8);
    expect(shop.products).toHaveLength(10);
    expect(shop.orders).toHaveLength(12);
    expect(shop.orders.find((order) => order.id === 'A10086')).toMatchObject({
      status: 'shipped',
      carrier: 'DHL',
      trackingNumber: 'JJD000390007284961',
      items: [{ name: 'Stainless Steel Kettle' }],
      total: 59.9,
    });
    expect(
      shop.products.find((product) => product.colour === 'blue' && product.category === 'kettle'),
    ).toMatchObject({
      sku: 'SKU-1002',
      unitsInStock: 14,
    });
    expect(
      shop.products.filter((product) => product.unitsInStock === 0).map((product) => product.sku),
    ).toEqual(['SKU-1003']);
    expect(new Set(shop.orders.map((order) => order.status))).toEqual(
      new Set(['processing', 'shipped', 'delivered', 'refunded']),
    );
  });
});

describe.each(storeFactories(() => redis))('seedShop on $name', ({ create }) => {
  let subject: StoreUnderTest;
  beforeEach(async () => {
    subject = await create();
  });
  afterEach(() => subject.cleanup());

  it('loads the fixture and returns its counts; seeding again changes nothing', async () => {
    const { store } = subject;
    expect(await seedShop({ store })).toEqual({
      customers: 8,
      products: 10,
      orders: 12,
      refunds: 1,
      inserted: 31,
    });
    await store.refundOrder({ orderId: 'A10086', idempotencyKey: 'k1' });
    await store.reserveStock({ sku: 'SKU-1002', quantity: 2, idempotencyKey: 'k2', holder: 'user:C001' });
    expect(await seedShop({ store })).toEqual({
      customers: 8,
      products: 10,
      orders: 12,
      refunds: 1,
      inserted: 0,
    });
    expect((await store.getOrder('A10086'))?.status).toBe('refunded');
    expect((await store.listRefunds()).map((refund) => refund.orderId)).toEqual(['A10089', 'A10086']);
    expect((await store.checkStock({ sku: 'SKU-1002' }))[0]?.unitsInStock).toBe(12);
  });

  it('rejects a malformed fixture naming each bad path, and writes nothing', async () => {
    const { store } = subject;
    const badId = await seedError(
      store,
      brokenFixture((shop) => {
        const [first] = shop.orders;
        if (first) first.id = '10086';
      }),
    );
    expect(badId.message).toContain('orders[0].id: must be the letter A followed by 5 digits, e.g. A10086');
    expect(await store.getOrder('A10087')).toBeUndefined();

    const badReference = await seedError(
      store,
      brokenFixture((shop) => {
        const second = shop.orders[1];
        if (second) second.customerId = 'C999';
        const first = shop.orders[0];
        if (first?.items[0]) first.items[0].sku = 'SKU-9999';
      }),
    );
    expect(badReference.message).toContain('orders[0].items[0].sku: names product SKU-9999');
    expect(badReference.message).toContain('orders[1].customerId: names customer C999');

    const notAnObject = await seedError(store, { customers: 'none' });
    expect(notAnObject.message).toMatch(/customers: .*array/);
    expect(await store.listRefunds()).toEqual([]);
  });
});

describe('seedShop options', () => {
  it('says what to pass when the store is missing', async () => {
    await expect(seedShop({ store: undefined as unknown as MemoryShopStore })).rejects.toThrow(
      'seedShop needs a store (a ShopStore such as MemoryShopStore or RedisShopStore).',
    );
  });
});
