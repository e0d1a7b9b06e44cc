import {
  bundledShopFixture,
  type Customer,
  type Order,
  type OutboxEmail,
  type Refund,
  type Reservation,
  ShopFixture,
  type ShopStore,
  type StockLevel,
} from '@switchboard/customer-service';

/** Everything of the shop that an attack could change, record by record. */
export interface ShopSnapshot {
  customers: (Customer | undefined)[];
  orders: (Order | undefined)[];
  stock: StockLevel[][];
  refunds: Refund[];
  outbox: OutboxEmail[];
  reservations: Reservation[];
}

/**
 * The whole shop as its store reads it back: every customer and order of the bundled fixture (whole
 * records: status, address, items), the stock of every product, and every refund, outbox email and
 * reservation. Two snapshots are equal only when nothing of the shop changed in between.
 */
export async function shopSnapshot(store: ShopStore): Promise<ShopSnapshot> {
  const fixture = ShopFixture.parse(bundledShopFixture());
  return {
    customers: await Promise.all(fixture.customers.map(({ id }) => store.getCustomer(id))),
    orders: await Promise.all(fixture.orders.map(({ id }) => store.getOrder(id))),
    stock: await Promise.all(fixture.products.map(({ sku }) => store.checkStock({ sku }))),
    refunds: await store.listRefunds(),
    outbox: await store.listOutbox(),
    reservations: await store.listReservations(),
  };
}
