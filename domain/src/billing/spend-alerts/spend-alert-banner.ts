import { formatCents } from '../../money/format-cents.ts';
import { projectedToExceed, reachedThresholds, type SpendFigures } from './spend-alerts.ts';

/** "$200", "$1,000,000": a budget in whole dollars. */
export function formatBudget(budget: number): string {
  return `$${budget.toLocaleString('en-US')}`;
}

export interface SpendAlertBanner {
  tone: 'warning' | 'destructive';
  title: string;
  detail: string;
}

/** The subject line of an alert: a threshold's or the projection's. */
export function spendAlertTitle(alert: number | 'projected', budget: number): string {
  return alert === 'projected'
    ? `You are projected to exceed your ${formatBudget(budget)} monthly budget`
    : `You have used ${alert}% of your ${formatBudget(budget)} monthly budget`;
}

/**
 * The billing page's banner: the highest threshold reached this cycle ("You have used 90% of your $200
 * monthly budget"), else the projection passing the budget; null when neither. Destructive from 100 %.
 */
export function spendAlertBanner(figures: SpendFigures): SpendAlertBanner | null {
  const spent = formatCents(figures.spend);
  const budget = formatCents(figures.budget * 100);
  const projected = formatCents(figures.projected);
  const top = reachedThresholds(figures).at(-1);
  if (top !== undefined) {
    return {
      tone: top >= 100 ? 'destructive' : 'warning',
      title: spendAlertTitle(top, figures.budget),
      detail: `${spent} spent so far this billing cycle against a ${budget} monthly budget; ${projected} projected by its end.`,
    };
  }
  if (projectedToExceed(figures)) {
    return {
      tone: 'warning',
      title: spendAlertTitle('projected', figures.budget),
      detail: `${spent} spent so far this billing cycle; ${projected} projected by its end, above the ${budget} budget.`,
    };
  }
  return null;
}
