import { type Principal, principalKey } from '@switchboard/agent';
import {
  mayReserveStock,
  orderNotFoundMessage,
  reachesCustomer,
  recipientRefusedMessage,
  reserveRefusedMessage,
  type ShopAccess,
  shopAccess,
} from './shop-access.ts';
import type { AddressChangeResult, QueueEmailResult, RefundResult, ReserveResult } from './shop-outcomes.ts';
import type { Customer, Order, OutboxEmail, Refund, Reservation, StockLevel } from './shop-records.ts';
import type { ShopStore } from './shop-store.ts';

/** A reservation refused because no customer is signed in (see `mayReserveStock`). */
export type ReserveRefused = { outcome: 'not_signed_in'; sku: string; message: string };

/** An email refused because its address is not one the caller may write to. */
export type RecipientRefused = { outcome: 'recipient_refused'; to: string; message: string };

type Input<Action extends keyof ShopStore> = Parameters<ShopStore[Action]>[0];

/**
 * The shop as one principal may see and change it (see {@link shopFor}): the {@link ShopStore}'s
 * reads and actions, each limited to the records the principal reaches.
 * - Another customer's order reads exactly like a missing one: `getOrder` gives undefined, and
 *   `updateShippingAddress` and `refundOrder` answer `order_not_found` with the same message,
 *   before anything is changed.
 * - `getCustomer` and `findCustomerByEmail` find only customers the view reaches (a customer:
 *   themselves); `queueEmail` writes only to them, to the address as the shop keeps it.
 * - The listings hold what the view reaches: emails to its customers, refunds of its orders, and
 *   reservations for an operator only (a reservation does not record whom it was made for).
 * - `checkStock` is public, the same for every caller; `reserveStock` needs a signed-in customer
 *   or an operator.
 */
export interface ShopView
  extends Pick<
    ShopStore,
    | 'getOrder'
    | 'getCustomer'
    | 'findCustomerByEmail'
    | 'updateShippingAddress'
    | 'refundOrder'
    | 'checkStock'
    | 'listOutbox'
    | 'listRefunds'
    | 'listReservations'
  > {
  /** Whose records this view reaches. */
  readonly access: ShopAccess;
  /**
   * {@link ShopStore.reserveStock}, for a signed-in customer or an operator, held by them: the
   * reservation counts against the limits of whom the view is for, never of whom a caller names.
   */
  reserveStock(input: Omit<Input<'reserveStock'>, 'holder'>): Promise<ReserveResult | ReserveRefused>;
  /** {@link ShopStore.queueEmail}, to a customer this view reaches. */
  queueEmail(input: Input<'queueEmail'>): Promise<QueueEmailResult | RecipientRefused>;
}

/**
 * The shop as `principal` may see and change it: the object-level access of every shop tool.
 * Operators reach every customer; a customer only their own orders, customer record and email
 * address; a service on its own account and a missing principal reach no customer. Stock levels are
 * public. Tools call it with `context.principal` on every call.
 *
 * @example
 * handler: async ({ orderId }, context) => {
 *   const order = await shopFor(store, context.principal).getOrder(orderId);
 *   ...
 * }
 */
export function shopFor(store: ShopStore, principal: Principal | undefined): ShopView {
  return new ScopedShop(store, shopAccess(principal), principal && principalKey(principal));
}

class ScopedShop implements ShopView {
  readonly #store: ShopStore;
  readonly access: ShopAccess;
  readonly #holder: string | undefined;

  constructor(store: ShopStore, access: ShopAccess, holder: string | undefined) {
    this.#store = store;
    this.access = access;
    this.#holder = holder;
  }

  async getOrder(orderId: string): Promise<Order | undefined> {
    if (this.access.reach === 'none') return undefined;
    const order = await this.#store.getOrder(orderId);
    return order && reachesCustomer(this.access, order.customerId) ? order : undefined;
  }

  async getCustomer(customerId: string): Promise<Customer | undefined> {
    if (!reachesCustomer(this.access, customerId)) return undefined;
    return this.#store.getCustomer(customerId);
  }

  async findCustomerByEmail(email: string): Promise<Customer | undefined> {
    const { access } = this;
    if (access.reach === 'all') return this.#store.findCustomerByEmail(email);
    if (access.reach === 'none') return undefined;
    // Only the caller's own record is read, so the answer cannot tell whose another address is.
    const own = await this.#store.getCustomer(access.customerId);
    return own && own.email.toLowerCase() === email.trim().toLowerCase() ? own : undefined;
  }

  async updateShippingAddress(input: Input<'updateShippingAddress'>): Promise<AddressChangeResult> {
    if (!(await this.getOrder(input.orderId))) return this.#orderNotFound(input.orderId);
    const result = await this.#store.updateShippingAddress(input);
    return result.outcome === 'order_not_found' ? this.#orderNotFound(input.orderId) : result;
  }

  async refundOrder(input: Input<'refundOrder'>): Promise<RefundResult> {
    // An order never changes hands, so checking before acting cannot be raced.
    if (!(await this.getOrder(input.orderId))) return this.#orderNotFound(input.orderId);
    const result = await this.#store.refundOrder(input);
    return result.outcome === 'order_not_found' ? this.#orderNotFound(input.orderId) : result;
  }

  checkStock(query: Input<'checkStock'>): Promise<StockLevel[]> {
    return this.#store.checkStock(query);
  }

  async reserveStock(input: Omit<Input<'reserveStock'>, 'holder'>): Promise<ReserveResult | ReserveRefused> {
    if (!mayReserveStock(this.access) || !this.#holder) {
      return { outcome: 'not_signed_in', sku: input.sku, message: reserveRefusedMessage(input.sku) };
    }
    return this.#store.reserveStock({ ...input, holder: this.#holder });
  }

  async queueEmail(input: Input<'queueEmail'>): Promise<QueueEmailResult | RecipientRefused> {
    const customer = await this.findCustomerByEmail(input.to);
    if (!customer) {
      return {
        outcome: 'recipient_refused',
        to: input.to,
        message: recipientRefusedMessage(this.access, input.to),
      };
    }
    return this.#store.queueEmail({ ...input, to: customer.email });
  }

  async listOutbox(): Promise<OutboxEmail[]> {
    const { access } = this;
    if (access.reach === 'none') return [];
    const outbox = await this.#store.listOutbox();
    if (access.reach === 'all') return outbox;
    const own = (await this.#store.getCustomer(access.customerId))?.email.toLowerCase();
    return outbox.filter((email) => email.to.toLowerCase() === own);
  }

  async listRefunds(): Promise<Refund[]> {
    if (this.access.reach === 'none') return [];
    const refunds = await this.#store.listRefunds();
    if (this.access.reach === 'all') return refunds;
    const orderIds = [...new Set(refunds.map((refund) => refund.orderId))];
    const reached = new Set<string>();
    for (const orderId of orderIds) if (await this.getOrder(orderId)) reached.add(orderId);
    return refunds.filter((refund) => reached.has(refund.orderId));
  }

  async listReservations(): Promise<Reservation[]> {
    return this.access.reach === 'all' ? this.#store.listReservations() : [];
  }

  #orderNotFound(orderId: string) {
    return {
      outcome: 'order_not_found' as const,
      orderId,
      message: orderNotFoundMessage(this.access, orderId),
    };
  }
}
