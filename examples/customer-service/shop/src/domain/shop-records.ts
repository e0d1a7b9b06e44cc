import { z } from 'zod';
import { OrderId } from './order-id.ts';
import { Sku } from './sku.ts';

const isWholeCents = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** An amount of money with at most two decimals, e.g. `59.9`. */
export const Money = z
  .number()
  .nonnegative()
  .refine(isWholeCents, 'must have at most two decimals, e.g. 59.90');

/** The shop sells in euros only. */
export const Currency = z.enum(['EUR']);
export type Currency = z.infer<typeof Currency>;

/** Parcel carriers the shop ships with. */
export const Carrier = z.enum(['DHL', 'UPS', 'DPD', 'GLS']);
export type Carrier = z.infer<typeof Carrier>;

/** Colours of the catalogue. */
export const Colour = z.enum(['black', 'white', 'silver', 'red', 'blue', 'green', 'grey', 'clear']);
export type Colour = z.infer<typeof Colour>;

/** Kinds of product the shop sells. */
export const ProductCategory = z.enum([
  'kettle',
  'toaster',
  'teapot',
  'mug',
  'blender',
  'grinder',
  'accessory',
]);
export type ProductCategory = z.infer<typeof ProductCategory>;

/** A customer id: the letter C and 3 digits, e.g. `C001`. */
export const CustomerId = z
  .string()
  .regex(/^C\d{3}$/, 'must be the letter C followed by 3 digits, e.g. C001');

/** A postal address. */
export const Address = z.object({
  name: z.string().trim().min(1).describe('Who receives the parcel, e.g. Ada Lovelace'),
  street: z.string().trim().min(1).describe('Street and house number, e.g. Hauptstraße 5'),
  postcode: z.string().trim().min(1).describe('Postal code, e.g. 10115'),
  city: z.string().trim().min(1).describe('City, e.g. Berlin'),
  // A refine, not a regex: as a JSON Schema pattern, two letters would match any short word of a request.
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => /^[A-Z]{2}$/.test(code), 'must be a 2-letter country code, e.g. DE')
    .describe('Two-letter country code, e.g. DE'),
});
export type Address = z.infer<typeof Address>;

/** C0 and C1 controls, and the Unicode line and paragraph separators: nothing of an address spans lines. */
function hasControl(value: string): boolean {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/** A field of an address as a caller writes it: one line, at most `max` characters. */
function addressLine(field: z.ZodString, max: number) {
  return field
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !hasControl(value), 'must be one line without control characters');
}

/**
 * An address as a caller (the model, for a customer) writes it: each field one line and bounded
 * (name and city 100 characters, street 200, postcode 16), so what a customer types cannot fill the
 * shop's records or span lines in what others read. Stored addresses are read with {@link Address}.
 */
export const AddressInput = Address.extend({
  name: addressLine(Address.shape.name, 100),
  street: addressLine(Address.shape.street, 200),
  postcode: addressLine(Address.shape.postcode, 16),
  city: addressLine(Address.shape.city, 100),
});

/** A customer of the shop. */
export const Customer = z.object({
  id: CustomerId,
  name: z.string().min(1),
  email: z.email(),
});
export type Customer = z.infer<typeof Customer>;

/** A product of the catalogue (its stock level is kept apart, see {@link StockLevel}). */
export const Product = z.object({
  sku: Sku,
  name: z.string().min(1),
  category: ProductCategory,
  colour: Colour,
  price: Money,
  currency: Currency,
});
export type Product = z.infer<typeof Product>;

/** A product with the units the warehouse has left. */
export const StockLevel = Product.extend({
  unitsInStock: z.number().int().nonnegative(),
  inStock: z.boolean(),
});
export type StockLevel = z.infer<typeof StockLevel>;

/** One line of an order. */
export const OrderItem = z.object({
  sku: Sku,
  name: z.string().min(1),
  quantity: z.number().int().positive(),
  unitPrice: Money,
});
export type OrderItem = z.infer<typeof OrderItem>;

/** Where an order stands. `refunded` orders were paid back in full. */
export const OrderStatus = z.enum(['processing', 'shipped', 'delivered', 'refunded']);
export type OrderStatus = z.infer<typeof OrderStatus>;

/**
 * An order. Shipped and delivered orders name their carrier, tracking number and shipping day;
 * delivered ones their delivery day; refunded ones when they were refunded.
 */
export const Order = z
  .object({
    id: OrderId,
    customerId: CustomerId,
    status: OrderStatus,
    placedOn: z.iso.date(),
    items: z.array(OrderItem).min(1),
    total: Money,
    currency: Currency,
    shippingAddress: Address,
    carrier: Carrier.optional(),
    trackingNumber: z.string().min(1).optional(),
    shippedOn: z.iso.date().optional(),
    deliveredOn: z.iso.date().optional(),
    refundedOn: z.iso.datetime().optional(),
  })
  .superRefine((order, context) => {
    const sum = order.items.reduce((total, item) => total + item.quantity * item.unitPrice, 0);
    if (Math.abs(sum - order.total) > 0.005) {
      context.addIssue({
        code: 'custom',
        path: ['total'],
        message: `must be the sum of the items (${sum.toFixed(2)})`,
      });
    }
    const shipped = order.status === 'shipped' || order.status === 'delivered';
    for (const field of ['carrier', 'trackingNumber', 'shippedOn'] as const) {
      if (shipped && order[field] === undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `is required when status is ${order.status}`,
        });
      }
    }
    if (order.status === 'delivered' && order.deliveredOn === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['deliveredOn'],
        message: 'is required when status is delivered',
      });
    }
    if (order.status === 'refunded' && order.refundedOn === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['refundedOn'],
        message: 'is required when status is refunded',
      });
    }
  });
export type Order = z.infer<typeof Order>;

/** A refund that was paid out. */
export const Refund = z.object({
  refundId: z.string().min(1),
  orderId: OrderId,
  amount: Money,
  currency: Currency,
  refundedAt: z.iso.datetime(),
  idempotencyKey: z.string().min(1),
});
export type Refund = z.infer<typeof Refund>;

/** Units of a product set aside for a customer. */
export const Reservation = z.object({
  reservationId: z.string().min(1),
  sku: Sku,
  quantity: z.number().int().positive(),
  reservedAt: z.iso.datetime(),
  idempotencyKey: z.string().min(1),
  /** Whom the units are set aside for (`user:C001`, `operator:ada`): whose limits they count against. */
  holder: z.string().min(1).optional(),
  /** When the units go back to the stock. */
  expiresAt: z.iso.datetime().optional(),
});
export type Reservation = z.infer<typeof Reservation>;

/** An email waiting in the outbox to be sent. */
export const OutboxEmail = z.object({
  emailId: z.string().min(1),
  to: z.email(),
  subject: z.string().min(1),
  body: z.string().min(1),
  queuedAt: z.iso.datetime(),
  idempotencyKey: z.string().min(1),
});
export type OutboxEmail = z.infer<typeof OutboxEmail>;
