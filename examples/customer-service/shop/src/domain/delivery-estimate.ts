import type { Carrier } from './shop-records.ts';

/** Business days from shipping to delivery, per carrier, inside the EU. */
export const TRANSIT_BUSINESS_DAYS: Readonly<Record<Carrier, number>> = { DHL: 2, UPS: 3, DPD: 2, GLS: 3 };

/** Adds business days (Monday to Friday) to an ISO date: `2026-11-27` (Fri) + 2 → `2026-12-01` (Tue). */
export function addBusinessDays({ date, days }: { date: string; days: number }): string {
  const day = new Date(`${date}T00:00:00Z`);
  let left = days;
  while (left > 0) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return day.toISOString().slice(0, 10);
}

/** The expected delivery day of a parcel shipped on `shippedOn` with `carrier`. */
export function estimateDeliveryDate({
  carrier,
  shippedOn,
}: {
  carrier: Carrier;
  shippedOn: string;
}): string {
  return addBusinessDays({ date: shippedOn, days: TRANSIT_BUSINESS_DAYS[carrier] });
}
