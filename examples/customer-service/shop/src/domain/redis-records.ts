import type { z } from 'zod';
import { CustomerServiceError, isCustomerServiceError } from '../errors.ts';
import type { ShopKeys } from './redis-shop-keys.ts';
import type { ShopData } from './shop-store.ts';

/** Runs a Redis call; a failure of Redis becomes `STORE_UNAVAILABLE` saying what could not be done. */
export async function redisCall<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (cause) {
    if (isCustomerServiceError(cause)) throw cause;
    throw new CustomerServiceError('STORE_UNAVAILABLE', {
      message: `Redis could not ${what}: ${cause instanceof Error ? cause.message : String(cause)}.`,
      cause,
    });
  }
}

/** Parses stored JSON text; `CORRUPT_RECORD` when it is not JSON. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CustomerServiceError('CORRUPT_RECORD', {
      message: `A stored ${what} is not valid JSON.`,
      cause,
    });
  }
}

/** Validates a stored value with its schema; `CORRUPT_RECORD` when it does not match. */
export function parseStored<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CustomerServiceError('CORRUPT_RECORD', {
    message: `A stored ${what} does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`,
    cause: parsed.error,
  });
}

/**
 * The commands of one MULTI that loads shop data without overwriting: `SET NX` per record (their
 * indexes in `inserts`, to count what was new), the index sets, the email index and the stock.
 */
export function loadCommands(
  keys: ShopKeys,
  data: ShopData,
): { commands: (string | number)[][]; inserts: number[] } {
  const commands: (string | number)[][] = [];
  const inserts: number[] = [];
  const insert = (key: string, value: unknown) => {
    inserts.push(commands.length);
    commands.push(['set', key, JSON.stringify(value), 'NX']);
  };
  for (const customer of data.customers) {
    insert(keys.customer(customer.id), customer);
    commands.push(['sadd', keys.customers, customer.id]);
    commands.push(['hsetnx', keys.customerEmails, customer.email.toLowerCase(), customer.id]);
  }
  for (const { unitsInStock, ...product } of data.products) {
    insert(keys.product(product.sku), product);
    commands.push(['sadd', keys.products, product.sku]);
    commands.push(['hsetnx', keys.stock, product.sku, unitsInStock]);
  }
  for (const order of data.orders) {
    insert(keys.order(order.id), order);
    commands.push(['sadd', keys.orders, order.id]);
  }
  return { commands, inserts };
}
