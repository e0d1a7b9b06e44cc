/** Idempotency records, one namespace per action. */
export type IdempotentAction = 'address' | 'refund' | 'reserve' | 'email';

/**
 * Key names of one shop in Redis, all under the hash tag `{<prefix>}` so that they live in one slot
 * of a Redis Cluster and a Lua script may touch several of them.
 */
export class ShopKeys {
  /** `{<prefix>}:shop`: the start of every key. */
  readonly base: string;

  constructor(prefix: string) {
    this.base = `{${prefix}}:shop`;
  }

  order(orderId: string): string {
    return `${this.base}:order:${orderId}`;
  }
  get orders(): string {
    return `${this.base}:orders`;
  }
  customer(customerId: string): string {
    return `${this.base}:customer:${customerId}`;
  }
  get customers(): string {
    return `${this.base}:customers`;
  }
  /** Hash of lower-case email → customer id. */
  get customerEmails(): string {
    return `${this.base}:customer-emails`;
  }
  product(sku: string): string {
    return `${this.base}:product:${sku}`;
  }
  get products(): string {
    return `${this.base}:products`;
  }
  /** Hash of SKU → units in stock. */
  get stock(): string {
    return `${this.base}:stock`;
  }
  get refunds(): string {
    return `${this.base}:refunds`;
  }
  get reservations(): string {
    return `${this.base}:reservations`;
  }
  /** Sorted set of the reservations not yet returned to the stock, by expiry (ms). */
  get activeReservations(): string {
    return `${this.base}:reservations:active`;
  }
  /** Sorted set of one holder's reservations, by expiry (ms): what counts against their limits. */
  held(holder: string): string {
    return `${this.base}:reservations:held:${holder}`;
  }
  get outbox(): string {
    return `${this.base}:outbox`;
  }
  idempotency(action: IdempotentAction, key: string): string {
    return `${this.base}:idem:${action}:${key}`;
  }
}
