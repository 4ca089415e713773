import { formatInvoiceDate } from '../format/dates.ts';

/** "12:00 UTC on Nov 20, 2026": a moment to the minute, as a person reads it. */
function atMinute(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const hour = String(date.getUTCHours()).padStart(2, '0');
  const minute = String(date.getUTCMinutes()).padStart(2, '0');
  return `${hour}:${minute} UTC on ${formatInvoiceDate(unixSeconds)}`;
}

/**
 * Between a cycle's end and its close (the late-usage grace, decision 005) the ended cycle is still
 * collecting its usage: a plan change, its preview or a spend-cap toggle is refused then, with 409 and
 * when to try again (product-decisions §15), rather than priced against a cycle that is over. The retry
 * moment is the close rounded up to the minute, so trying at the minute named is never too early; once
 * it has passed (the billing job has not closed the cycle yet), a few minutes.
 */
export function cycleClosingMessage(endedAt: number, closesAt: number, now: number): string {
  const retryAt = Math.ceil(closesAt / 60) * 60;
  const when = retryAt > now ? `after ${atMinute(retryAt)}` : 'in a few minutes';
  return (
    `Your billing cycle ended at ${atMinute(endedAt)} and its invoice is being closed. ` +
    `Try the change again ${when}.`
  );
}
