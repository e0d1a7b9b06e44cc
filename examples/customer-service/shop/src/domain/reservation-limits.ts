import { CustomerServiceError } from '../errors.ts';

/**
 * How much of the shared stock one holder (a signed-in customer, or an operator) may keep set
 * aside, and for how long. Both stores enforce it in the same atomic step as the reservation, so
 * concurrent requests of one customer cannot pass it together; expired reservations go back to the
 * stock before any reservation or stock level is read.
 */
export interface ReservationLimits {
  /** Units of one product one holder may hold at once (default 5). */
  unitsPerProduct: number;
  /** Units of all products one holder may hold at once (default 10). */
  unitsInAll: number;
  /** How long a reservation lasts before its units go back to the stock (default 1800 s, 30 minutes). */
  ttlSeconds: number;
}

/** The limits a store applies when given none. */
export const DEFAULT_RESERVATION_LIMITS: ReservationLimits = {
  unitsPerProduct: 5,
  unitsInAll: 10,
  ttlSeconds: 30 * 60,
};

/** The limits of a store's options, defaults filled in; throws `INVALID_OPTIONS` naming what is wrong. */
export function reservationLimits(store: string, given: Partial<ReservationLimits> = {}): ReservationLimits {
  const limits = { ...DEFAULT_RESERVATION_LIMITS, ...given };
  const wrong = (Object.keys(DEFAULT_RESERVATION_LIMITS) as (keyof ReservationLimits)[]).filter(
    (name) => !Number.isInteger(limits[name]) || limits[name] < 1,
  );
  if (limits.unitsInAll < limits.unitsPerProduct) wrong.push('unitsInAll');
  if (wrong.length > 0) {
    throw new CustomerServiceError('INVALID_OPTIONS', {
      message: `${store}: reservationLimits.${wrong[0]} must be a whole number above 0 (unitsInAll at least unitsPerProduct); got ${JSON.stringify(given)}. Leave it out for ${JSON.stringify(DEFAULT_RESERVATION_LIMITS)}.`,
    });
  }
  return limits;
}

/** How long reservations last, in words: "30 minutes". */
function lasting(ttlSeconds: number): string {
  if (ttlSeconds % 60 !== 0) return `${ttlSeconds} seconds`;
  const minutes = ttlSeconds / 60;
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** The outcome of a reservation over a holder's limit: nothing was reserved, and why, for the model. */
export function limitReached({
  sku,
  requested,
  held,
  scope,
  limits,
}: {
  sku: string;
  requested: number;
  held: number;
  scope: 'product' | 'total';
  limits: ReservationLimits;
}) {
  const limit = scope === 'product' ? limits.unitsPerProduct : limits.unitsInAll;
  const holds =
    scope === 'product'
      ? `already holds ${held} unit${held === 1 ? '' : 's'} of ${sku}, and one customer may hold at most ${limit} units of one product at a time`
      : `already holds ${held} reserved unit${held === 1 ? '' : 's'}, and one customer may hold at most ${limit} units in all at a time`;
  return {
    outcome: 'limit_reached' as const,
    sku,
    requested,
    held,
    limit,
    scope,
    message: `Nothing was reserved: this customer ${holds}. Reservations end ${lasting(limits.ttlSeconds)} after they are made, and the units go back to the stock.`,
  };
}
