import type { BillingSource } from '@meterline/domain';

/**
 * The analytics port. No provider is wired yet: events are kept in memory so tests (and a future
 * adapter) can read them. Never log them: the console is for warnings and errors.
 */
export type AnalyticsEvent = {
  name: 'billing_page_viewed';
  properties: { organization: string; source: BillingSource | null };
};

const MAX_EVENTS = 200;
const events: AnalyticsEvent[] = [];

export function track(event: AnalyticsEvent): void {
  events.push(event);
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
}

export function recordedEvents(): readonly AnalyticsEvent[] {
  return [...events];
}

export function clearRecordedEvents(): void {
  events.length = 0;
}
