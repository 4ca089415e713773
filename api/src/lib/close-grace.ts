/**
 * Metering agents report usage a little after it happens: a cycle closes only once this long has passed
 * since its end, so the invoice that closes it carries its usage. What comes later still is billed on
 * the next invoice (see late-usage.ts). BILLING_CLOSE_GRACE_MINUTES sets it.
 */
export const DEFAULT_CLOSE_GRACE_MINUTES = 60;

/** The moment a cycle that ends at `periodEnd` is due to close. */
export function closesAt(periodEnd: Date, graceMinutes: number): Date {
  return new Date(periodEnd.getTime() + graceMinutes * 60_000);
}
