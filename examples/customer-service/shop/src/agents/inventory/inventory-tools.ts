import { type AnyTool, defineTool } from '@switchboard/agent';
import { z } from 'zod';
import { assertNeverOutcome } from '../../domain/shop-outcomes.ts';
import { Colour, ProductCategory } from '../../domain/shop-records.ts';
import type { ShopStore } from '../../domain/shop-store.ts';
import { shopFor } from '../../domain/shop-view.ts';
import { Sku } from '../../domain/sku.ts';
import { actionKey } from '../action-key.ts';

const StockQuery = z
  .object({
    sku: Sku.optional(),
    category: ProductCategory.optional().describe('The kind of product, e.g. kettle'),
    colour: Colour.optional().describe('The colour of the product, e.g. blue'),
    product: z.string().trim().min(1).optional().describe('Other words of the product name, e.g. enamel'),
  })
  .refine(
    (query) => Boolean(query.sku || query.category || query.colour || query.product),
    'needs a sku, or a category, colour or product name words to look for',
  );

function checkStockTool(store: ShopStore) {
  return defineTool({
    name: 'check_stock',
    summary: 'Check whether a product is in stock and how many units are left, by SKU or by kind and colour.',
    whenToUse: 'The customer asks whether a product is in stock or available, or how many are left.',
    input: StockQuery,
    risk: 'read',
    fallbackMessage: 'The stock levels are not available right now.',
    // Stock levels are public: anyone may ask, signed in or not.
    handler: async ({ sku, category, colour, product }) => {
      const words = [product, colour, category].filter(Boolean).join(' ');
      const levels = await store.checkStock(sku ? { sku } : { product: words });
      if (levels.length === 0) {
        return {
          found: 0,
          message: `No product matches ${sku ?? `"${words}"`}. Ask the customer for the SKU or another description.`,
        };
      }
      return {
        found: levels.length,
        products: levels.map((level) => ({
          sku: level.sku,
          name: level.name,
          unitsInStock: level.unitsInStock,
          inStock: level.inStock,
        })),
      };
    },
  });
}

function reserveStockTool(store: ShopStore) {
  return defineTool({
    name: 'reserve_stock',
    summary: 'Reserve units of a product by SKU for a customer, taking them out of the stock.',
    whenToUse: 'The customer asks to reserve or hold a number of units of a product with a known SKU.',
    whenNotToUse: 'The customer only asks whether something is available; use check_stock.',
    input: z.object({
      sku: Sku,
      quantity: z.number().int().min(1).max(50).describe('How many units to reserve'),
    }),
    risk: 'write',
    idempotent: true,
    fallbackMessage: 'Nothing could be reserved right now. Tell the customer to try again later.',
    handler: async ({ sku, quantity }, context) => {
      // Stock levels are public (check_stock needs no one signed in), but a reservation takes units
      // away from everyone else, so it is for a signed-in customer or an operator only.
      const result = await shopFor(store, context.principal).reserveStock({
        sku,
        quantity,
        idempotencyKey: actionKey(context),
      });
      switch (result.outcome) {
        case 'reserved':
          return {
            sku,
            reserved: result.reservation.quantity,
            reservationId: result.reservation.reservationId,
            unitsLeft: result.unitsLeft,
            ...(result.replayed
              ? { note: 'This reservation had already been made; it was not made twice.' }
              : {}),
          };
        case 'insufficient_stock':
        case 'product_not_found':
        case 'not_signed_in':
        case 'limit_reached':
          return { sku, reserved: 0, message: result.message };
        default:
          return assertNeverOutcome(result);
      }
    },
  });
}

/** The inventory agent's tools, on a store. */
export function createInventoryTools({ store }: { store: ShopStore }): AnyTool[] {
  return [checkStockTool(store), reserveStockTool(store)];
}
