import { type AnyTool, type Principal, userText } from '@switchboard/agent';
import { OfflineModel } from '@switchboard/offline-model';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCommsTools,
  createInventoryTools,
  createOrdersTools,
  type ShopStore,
  seedShop,
} from '../src/index.ts';
import { callTool, shopSnapshot, withoutId } from './support/access.ts';
import {
  ada,
  connectRedis,
  grace,
  now,
  operator,
  type StoreUnderTest,
  service,
  storeFactories,
} from './support/shop.ts';

const redis = connectRedis();
afterAll(() => redis.quit());

const model = new OfflineModel({ now });
const newAddress = {
  name: 'Mallory',
  street: 'Elsewhere 1',
  postcode: '99999',
  city: 'Nowhere',
  country: 'DE',
};
const NOT_ON_ADAS_ACCOUNT =
  'There is no order A10087 on your account. Ask the customer to check the order id in their confirmation email.';

describe.each(storeFactories(() => redis))(
  'every shop tool decides on the principal, on $name',
  ({ create }) => {
    let subject: StoreUnderTest;
    let store: ShopStore;
    let tools: AnyTool[];
    const call = (name: string, args: Record<string, unknown>, principal: Principal | undefined) =>
      callTool(tools, name, args, principal);
    beforeEach(async () => {
      subject = await create();
      store = subject.store;
      await seedShop({ store });
      tools = [
        ...createOrdersTools({ store }),
        ...createInventoryTools({ store }),
        ...createCommsTools({ store, model }),
      ];
    });
    afterEach(() => subject.cleanup());

    /**
     * Ada (C001) asks about Grace's order A10087, then about A99999 that does not exist: the answers
     * are the same but for the id, and the shop is unchanged.
     */
    async function refusedLikeMissing(name: string, args: (orderId: string) => Record<string, unknown>) {
      const before = await shopSnapshot(store);
      const others = await call(name, args('A10087'), ada);
      const missing = await call(name, args('A99999'), ada);
      expect(withoutId(others, 'A10087')).toBe(withoutId(missing, 'A99999'));
      expect(await shopSnapshot(store)).toEqual(before);
      return others;
    }

    it('get_order: Ada reads her order as before; Grace’s reads like a missing one', async () => {
      expect(await call('get_order', { orderId: 'A10086' }, ada)).toEqual({
        orderId: 'A10086',
        status: 'shipped',
        placedOn: '2026-11-25',
        items: [{ sku: 'SKU-1001', name: 'Stainless Steel Kettle', quantity: 1 }],
        total: '59.90 EUR',
        carrier: 'DHL',
        trackingNumber: 'JJD000390007284961',
        shippedOn: '2026-11-27',
        shipTo: userText('Berlin, DE'),
      });
      const others = await refusedLikeMissing('get_order', (orderId) => ({ orderId }));
      expect(others).toEqual({ orderId: 'A10087', found: false, message: NOT_ON_ADAS_ACCOUNT });
      expect(await call('get_order', { orderId: 'A10087' }, operator)).toMatchObject({
        orderId: 'A10087',
        status: 'processing',
        shipTo: userText('Lyon, FR'),
      });
    });

    it('estimate_delivery: even the right carrier and tracking number of another’s parcel tell nothing', async () => {
      const parcel = { carrier: 'GLS', trackingNumber: 'GLS5829103401' }; // A10090, Marie Curie's
      const before = await shopSnapshot(store);
      const others = await call('estimate_delivery', { orderId: 'A10090', ...parcel }, ada);
      const missing = await call('estimate_delivery', { orderId: 'A99999', ...parcel }, ada);
      expect(withoutId(others, 'A10090')).toBe(withoutId(missing, 'A99999'));
      expect(others).toMatchObject({ found: false });
      expect(await shopSnapshot(store)).toEqual(before);
      expect(await call('estimate_delivery', { orderId: 'A10090', ...parcel }, operator)).toMatchObject({
        status: 'in transit',
      });
      expect(
        await call(
          'estimate_delivery',
          { orderId: 'A10086', carrier: 'DHL', trackingNumber: 'JJD000390007284961' },
          ada,
        ),
      ).toMatchObject({ status: 'in transit', estimatedDelivery: '2026-12-01' });
    });

    it('update_shipping_address: Grace moves her order; Ada cannot move it; an operator can', async () => {
      const others = await refusedLikeMissing('update_shipping_address', (orderId) => ({
        orderId,
        ...newAddress,
      }));
      expect(others).toEqual({ orderId: 'A10087', updated: false, message: NOT_ON_ADAS_ACCOUNT });
      expect(
        await call('update_shipping_address', { orderId: 'A10087', ...newAddress }, grace),
      ).toMatchObject({
        updated: true,
        shipTo: userText('Mallory, Elsewhere 1, 99999 Nowhere, DE'),
      });
      expect(
        await call('update_shipping_address', { orderId: 'A10091', ...newAddress }, operator),
      ).toMatchObject({
        updated: true,
      });
      expect((await store.getOrder('A10091'))?.shippingAddress.city).toBe('Nowhere');
    });

    it('refund_order: Ada refunds her order; Grace’s is refused like a missing one, in the approval text too', async () => {
      const others = await refusedLikeMissing('refund_order', (orderId) => ({ orderId }));
      expect(others).toEqual({ orderId: 'A10087', refunded: false, message: NOT_ON_ADAS_ACCOUNT });
      const refund = tools.find((tool) => tool.name === 'refund_order');
      const described = async (orderId: string, principal: Principal | undefined) =>
        (await refund?.describeForApproval?.({ orderId }, { principal }))?.action;
      expect(withoutId(await described('A10087', ada), 'A10087')).toBe(
        withoutId(await described('A99999', ada), 'A99999'),
      );
      expect(await described('A10087', grace)).toBe(
        'Refund order A10087 in full (75.70 EUR) to the original payment method',
      );
      expect(await call('refund_order', { orderId: 'A10086' }, ada)).toMatchObject({
        refunded: true,
        amount: '59.90 EUR',
      });
      expect(await call('refund_order', { orderId: 'A10087' }, operator)).toMatchObject({ refunded: true });
      expect((await store.listRefunds()).map((item) => item.orderId)).toEqual(['A10089', 'A10086', 'A10087']);
    });

    it('draft_apology_email: only to the customer of one’s own order; an operator to anyone’s', async () => {
      const others = await refusedLikeMissing('draft_apology_email', (orderId) => ({ orderId }));
      expect(others).toEqual({ orderId: 'A10087', drafted: false, message: NOT_ON_ADAS_ACCOUNT });
      expect(JSON.stringify(others)).not.toContain('grace');
      expect(await call('draft_apology_email', { orderId: 'A10086' }, ada)).toMatchObject({
        to: 'ada.lovelace@example.com',
      });
      expect(await call('draft_apology_email', { orderId: 'A10087' }, operator)).toMatchObject({
        to: 'grace.hopper@example.com',
      });
    });

    it('send_email: a customer only to their own address; an operator to any customer', async () => {
      const email = { subject: 'Hello', body: 'Your data' };
      const before = await shopSnapshot(store);
      const other = await call('send_email', { ...email, to: 'grace.hopper@example.com' }, ada);
      const stranger = await call('send_email', { ...email, to: 'eve@evil.example' }, ada);
      expect(other).toEqual({
        to: 'grace.hopper@example.com',
        queued: false,
        message:
          "grace.hopper@example.com is not the email address on your account; emails go only to the customer's own address.",
      });
      expect(withoutId(other, 'grace.hopper@example.com')).toBe(withoutId(stranger, 'eve@evil.example'));
      expect(await shopSnapshot(store)).toEqual(before);
      expect(await call('send_email', { ...email, to: 'ada.lovelace@example.com' }, ada)).toMatchObject({
        queued: true,
      });
      expect(await call('send_email', { ...email, to: 'grace.hopper@example.com' }, operator)).toMatchObject({
        queued: true,
      });
      expect((await store.listOutbox()).map((item) => item.to)).toEqual([
        'ada.lovelace@example.com',
        'grace.hopper@example.com',
      ]);
    });

    it('extract_ticket: an order named in the message is looked up as the caller', async () => {
      const message = (orderId: string) => `I'm furious, my order ${orderId} arrived broken!`;
      const before = await shopSnapshot(store);
      const others = await call('extract_ticket', { request: message('A10087') }, ada);
      const missing = await call('extract_ticket', { request: message('A99999') }, ada);
      expect(withoutId(others, 'A10087')).toBe(withoutId(missing, 'A99999'));
      expect(JSON.stringify(others)).not.toMatch(/Blender|Mug/);
      expect(await shopSnapshot(store)).toEqual(before);
      expect(await call('extract_ticket', { request: message('A10087') }, grace)).toMatchObject({
        orderId: 'A10087',
        product: 'Personal Blender and Stoneware Mug',
      });
    });

    it('check_stock is public; reserve_stock needs a signed-in customer or an operator', async () => {
      const level = { found: 1, products: [{ sku: 'SKU-1002', inStock: true }] };
      for (const anyone of [ada, service, undefined]) {
        expect(await call('check_stock', { sku: 'SKU-1002' }, anyone)).toMatchObject(level);
      }
      const before = await shopSnapshot(store);
      for (const nobody of [service, undefined]) {
        expect(await call('reserve_stock', { sku: 'SKU-1002', quantity: 2 }, nobody)).toEqual({
          sku: 'SKU-1002',
          reserved: 0,
          message:
            'Nothing of SKU-1002 was reserved: reserving stock is for a signed-in customer, and no customer is signed in to this conversation. Ask the customer to sign in and try again.',
        });
      }
      expect(await shopSnapshot(store)).toEqual(before);
      expect(await call('reserve_stock', { sku: 'SKU-1002', quantity: 2 }, ada)).toMatchObject({
        reserved: 2,
      });
      expect(await call('reserve_stock', { sku: 'SKU-1003', quantity: 1 }, operator)).toMatchObject({
        reserved: 0,
        message: expect.stringContaining('Only 0 units of SKU-1003'),
      });
    });

    it('two customers in one conversation id each get their own action, not the other’s replayed', async () => {
      const adas = await call('reserve_stock', { sku: 'SKU-1002', quantity: 2 }, ada);
      const graces = await call('reserve_stock', { sku: 'SKU-1002', quantity: 2 }, grace);
      expect(adas).toMatchObject({ reserved: 2, unitsLeft: 12 });
      expect(graces).toMatchObject({ reserved: 2, unitsLeft: 10 });
      expect(graces).not.toHaveProperty('note');
      expect(await store.listReservations()).toHaveLength(2);
    });

    it('a service on its own and a call without a principal get no customer data from any tool', async () => {
      const before = await shopSnapshot(store);
      for (const nobody of [service, undefined]) {
        const answers = [
          await call('get_order', { orderId: 'A10086' }, nobody),
          await call(
            'estimate_delivery',
            { orderId: 'A10086', carrier: 'DHL', trackingNumber: 'JJD000390007284961' },
            nobody,
          ),
          await call('update_shipping_address', { orderId: 'A10087', ...newAddress }, nobody),
          await call('refund_order', { orderId: 'A10086' }, nobody),
          await call('draft_apology_email', { orderId: 'A10086' }, nobody),
          await call('send_email', { to: 'ada.lovelace@example.com', subject: 'Hi', body: 'b' }, nobody),
          await call('extract_ticket', { request: 'My order A10086 arrived broken!' }, nobody),
        ];
        const text = JSON.stringify(answers);
        for (const secret of ['Kettle', 'Berlin', '59.90', 'JJD', 'Ada', 'in transit', 'Lovelace'])
          expect(text).not.toContain(secret);
        expect(answers[0]).toEqual({
          orderId: 'A10086',
          found: false,
          message:
            'Order A10086 cannot be looked up: no customer is signed in to this conversation. Ask the customer to sign in and try again.',
        });
      }
      expect(await shopSnapshot(store)).toEqual(before);
    });
  },
);
