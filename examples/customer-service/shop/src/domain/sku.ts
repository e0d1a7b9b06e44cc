import { z } from 'zod';

/** What a customer and a model are told when a SKU has the wrong form. */
export const SKU_FORMAT = 'must be SKU- followed by 4 digits, e.g. SKU-1002';

/** A stock keeping unit: `SKU-` and 4 digits (`SKU-1002`); lower case is accepted and upper-cased. */
export const Sku = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^SKU-\d{4}$/, SKU_FORMAT)
  .describe('The stock keeping unit: SKU- followed by 4 digits, e.g. SKU-1002');
export type Sku = z.infer<typeof Sku>;
