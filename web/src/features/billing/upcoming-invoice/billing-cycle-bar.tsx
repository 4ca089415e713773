import { cycleDays, daysLeft, formatPeriod, type Subscription } from '@meterline/domain';

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Days left of the current cycle, as a bar that fills as the cycle goes by. */
export function BillingCycleBar({
  subscription,
  now,
}: {
  subscription: Pick<Subscription, 'current_period_start' | 'current_period_end'>;
  now: number;
}) {
  const cycle = { start: subscription.current_period_start, end: subscription.current_period_end };
  const total = cycleDays(cycle);
  const left = Math.min(total, daysLeft(cycle, now));
  const elapsed = total - left;
  const summary = `${plural(left, 'day')} left of ${plural(total, 'day')}`;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-medium">
          Current billing cycle{' '}
          <span className="font-normal text-muted-foreground">
            {formatPeriod(cycle.start, cycle.end)}
          </span>
        </p>
        <p className="text-muted-foreground tabular-nums">{summary}</p>
      </div>
      <div
        role="progressbar"
        aria-label="Billing cycle"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={elapsed}
        aria-valuetext={summary}
        className="h-2 overflow-hidden rounded-full bg-subtle"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width]"
          style={{ width: `${total > 0 ? (elapsed / total) * 100 : 0}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        Add-on changes or new projects may take up to an hour to appear.
      </p>
    </div>
  );
}
