import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Address, type ShopStore, seedShop, shopAccess, shopFor } from '../src/index.ts';
import { shopSnapshot, withoutId } from './support/access.ts';
import {
  ada,
  connectRedis,
  customer,
  grace,
  operator,
  type StoreUnderTest,
  service,
  storeFactories,
} from './support/shop.ts';

const redis = connectRedis();
afterAll(() => redis.quit());

const address: Address = {
  name: 'Mallory',
  street: 'Elsewhere 1',
  postcode: '99999',
  city: 'Nowhere',
  country: 'DE',
};

describe('who reaches whose records', () => {
  it('an operator every customer, a customer their own, a service on its own and nobody none', () => {
    expect(shopAccess(operator)).toEqual({ reach: 'all' });
    expect(shopAccess(ada)).toEqual({ reach: 'customer', customerId: 'C001' });
    // A customer's request relayed by the supervisor is still that customer's.
    expect(shopAccess(customer('C001', ['supervisor']))).toEqual({ reach: 'customer', customerId: 'C001' });
    expect(shopAccess(service)).toEqual({ reach: 'none' });
    expect(shopAccess(undefined)).toEqual({ reach: 'none' });
  });
});

describe.each(storeFactories(() => redis))('the shop as a principal sees it, on $name', ({ create }) => {
  let subject: StoreUnderTest;
  let store: ShopStore;
  beforeEach(async () => {
    subject = await create();
    store = subject.store;
    await seedShop({ store });
  });
  afterEach(() => subject.cleanup());

  it('a customer reads their own order and customer record, and nobody else’s', async () => {
    const shop = shopFor(store, ada);
    expect(await shop.getOrder('A10086')).toEqual(await store.getOrder('A10086'));
    expect(await shop.getOrder('A10087')).toBeUndefined();
    expect(await shop.getOrder('A99999')).toBeUndefined();
    expect(await shop.getCustomer('C001')).toEqual(await store.getCustomer('C001'));
    expect(await shop.getCustomer('C002')).toBeUndefined();
    expect((await shop.findCustomerByEmail(' ADA.Lovelace@Example.com '))?.id).toBe('C001');
    expect(await shop.findCustomerByEmail('grace.hopper@example.com')).toBeUndefined();
  });

  it('an operator reads every order and customer; a service on its own and no principal read none', async () => {
    const desk = shopFor(store, operator);
    expect((await desk.getOrder('A10087'))?.customerId).toBe('C002');
    expect((await desk.findCustomerByEmail('grace.hopper@example.com'))?.id).toBe('C002');
    for (const nobody of [service, undefined]) {
      const shop = shopFor(store, nobody);
      expect(await shop.getOrder('A10086')).toBeUndefined();
      expect(await shop.getCustomer('C001')).toBeUndefined();
      expect(await shop.findCustomerByEmail('ada.lovelace@example.com')).toBeUndefined();
      expect(await shop.listRefunds()).toEqual([]);
      expect(await shop.listOutbox()).toEqual([]);
    }
  });

  it('another customer’s order is refused like a missing one, before anything changes', async () => {
    const shop = shopFor(store, ada);
    const before = await shopSnapshot(store);
    const others = await shop.updateShippingAddress({ orderId: 'A10087', address, idempotencyKey: 'a-1' });
    const missing = await shop.updateShippingAddress({ orderId: 'A99999', address, idempotencyKey: 'a-2' });
    expect(others).toEqual({
      outcome: 'order_not_found',
      orderId: 'A10087',
      message:
        'There is no order A10087 on your account. Ask the customer to check the order id in their confirmation email.',
    });
    expect(withoutId(others, 'A10087')).toBe(withoutId(missing, 'A99999'));
    const refund = await shop.refundOrder({ orderId: 'A10087', idempotencyKey: 'r-1' });
    const noRefund = await shop.refundOrder({ orderId: 'A99999', idempotencyKey: 'r-2' });
    expect(refund.outcome).toBe('order_not_found');
    expect(withoutId(refund, 'A10087')).toBe(withoutId(noRefund, 'A99999'));
    expect(await shopSnapshot(store)).toEqual(before);
  });

  it('a customer changes and refunds their own order; an operator anyone’s', async () => {
    const moved = await shopFor(store, grace).updateShippingAddress({
      orderId: 'A10087',
      address,
      idempotencyKey: 'a-1',
    });
    expect(moved).toMatchObject({ outcome: 'updated', shippingAddress: address });
    expect((await store.getOrder('A10087'))?.shippingAddress).toEqual(address);
    const refunded = await shopFor(store, ada).refundOrder({ orderId: 'A10086', idempotencyKey: 'r-1' });
    expect(refunded).toMatchObject({ outcome: 'refunded', refund: { orderId: 'A10086', amount: 59.9 } });
    const byOperator = await shopFor(store, operator).refundOrder({
      orderId: 'A10095',
      idempotencyKey: 'r-2',
    });
    expect(byOperator).toMatchObject({ outcome: 'refunded', refund: { orderId: 'A10095' } });
  });

  it('a service on its own and no principal change nothing, and are told no customer is signed in', async () => {
    const before = await shopSnapshot(store);
    for (const nobody of [service, undefined]) {
      const shop = shopFor(store, nobody);
      const moved = await shop.updateShippingAddress({ orderId: 'A10087', address, idempotencyKey: 'a' });
      expect(moved).toMatchObject({ outcome: 'order_not_found' });
      expect((moved as { message: string }).message).toContain('no customer is signed in');
      expect(await shop.refundOrder({ orderId: 'A10086', idempotencyKey: 'r' })).toMatchObject({
        outcome: 'order_not_found',
      });
      expect(await shop.reserveStock({ sku: 'SKU-1002', quantity: 1, idempotencyKey: 's' })).toMatchObject({
        outcome: 'not_signed_in',
      });
      expect(
        await shop.queueEmail({
          to: 'ada.lovelace@example.com',
          subject: 's',
          body: 'b',
          idempotencyKey: 'e',
        }),
      ).toMatchObject({ outcome: 'recipient_refused' });
    }
    expect(await shopFor(store, service).checkStock({ sku: 'SKU-1002' })).toEqual(
      await store.checkStock({ sku: 'SKU-1002' }),
    );
    expect(await shopSnapshot(store)).toEqual(before);
  });

  it('a customer emails only their own address; another customer’s reads like a stranger’s', async () => {
    const shop = shopFor(store, ada);
    const email = { subject: 'Hello', body: 'Your data', idempotencyKey: 'e-1' };
    const before = await shopSnapshot(store);
    const other = await shop.queueEmail({ ...email, to: 'grace.hopper@example.com' });
    const stranger = await shop.queueEmail({ ...email, to: 'eve@evil.example' });
    expect(other).toEqual({
      outcome: 'recipient_refused',
      to: 'grace.hopper@example.com',
      message:
        "grace.hopper@example.com is not the email address on your account; emails go only to the customer's own address.",
    });
    expect(withoutId(other, 'grace.hopper@example.com')).toBe(withoutId(stranger, 'eve@evil.example'));
    expect(await shopSnapshot(store)).toEqual(before);
    const own = await shop.queueEmail({ ...email, to: 'Ada.Lovelace@example.com' });
    expect(own).toMatchObject({ outcome: 'queued', email: { to: 'ada.lovelace@example.com' } });
    const desk = await shopFor(store, operator).queueEmail({
      ...email,
      to: 'grace.hopper@example.com',
      idempotencyKey: 'e-2',
    });
    expect(desk).toMatchObject({ outcome: 'queued', email: { to: 'grace.hopper@example.com' } });
  });

  it('lists only what the principal reaches', async () => {
    await shopFor(store, ada).queueEmail({
      to: 'ada.lovelace@example.com',
      subject: 'Hi Ada',
      body: 'b',
      idempotencyKey: 'e-1',
    });
    await shopFor(store, grace).queueEmail({
      to: 'grace.hopper@example.com',
      subject: 'Hi Grace',
      body: 'b',
      idempotencyKey: 'e-2',
    });
    await shopFor(store, ada).reserveStock({ sku: 'SKU-1002', quantity: 1, idempotencyKey: 's-1' });
    expect((await shopFor(store, ada).listOutbox()).map((email) => email.subject)).toEqual(['Hi Ada']);
    expect((await shopFor(store, operator).listOutbox()).map((email) => email.subject)).toEqual([
      'Hi Ada',
      'Hi Grace',
    ]);
    // A10089 was refunded before (Katherine Johnson, C004).
    expect(await shopFor(store, ada).listRefunds()).toEqual([]);
    expect((await shopFor(store, customer('C004')).listRefunds()).map((refund) => refund.orderId)).toEqual([
      'A10089',
    ]);
    expect(await shopFor(store, operator).listRefunds()).toEqual(await store.listRefunds());
    // A reservation does not record whom it is for: only an operator lists them.
    expect(await shopFor(store, ada).listReservations()).toEqual([]);
    expect(await shopFor(store, operator).listReservations()).toHaveLength(1);
  });
});
