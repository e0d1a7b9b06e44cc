import { z } from 'zod';

/** What a customer and a model are told when an order id has the wrong form. */
export const ORDER_ID_FORMAT = 'must be the letter A followed by 5 digits, e.g. A10086';

/**
 * An order id of the shop: the letter A and 5 digits (`A10086`). Surrounding spaces are dropped and
 * a lower-case `a10086` is accepted as `A10086`; anything else fails with {@link ORDER_ID_FORMAT}.
 */
export const OrderId = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^A\d{5}$/, ORDER_ID_FORMAT)
  .describe('The order id: the letter A followed by 5 digits, e.g. A10086');
export type OrderId = z.infer<typeof OrderId>;
