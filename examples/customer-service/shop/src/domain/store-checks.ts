import { CustomerServiceError } from '../errors.ts';
import type { StockLevel } from './shop-records.ts';
import type { StockedProduct } from './shop-store.ts';

/** The error for an idempotency key used again for a different action. */
export function keyReused(action: string, idempotencyKey: string): CustomerServiceError {
  return new CustomerServiceError('IDEMPOTENCY_KEY_REUSED', {
    message: `${action}: idempotency key "${idempotencyKey}" was already used for a different action. Use one key per action.`,
    details: { action, idempotencyKey },
  });
}

/** A stocked product as a stock level. */
export function toStockLevel(product: StockedProduct): StockLevel {
  return { ...structuredClone(product), inStock: product.unitsInStock > 0 };
}
