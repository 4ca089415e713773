import type { Cents } from '../../money/cents.ts';
import { formatCents } from '../../money/format-cents.ts';
import {
  projectedToExceed,
  reachedThresholds,
  spendLevel,
  usedPercent,
  type SpendFigures,
} from './spend-alerts.ts';

/** "$200", "$1,000,000": a budget in whole dollars. */
export function formatBudget(budget: number): string {
  return `$${budget.toLocaleString('en-US')}`;
}

export interface SpendAlertBanner {
  tone: 'warning' | 'destructive';
  title: string;
  detail: string;
}

/**
 * The subject line of an alert: the projection's, or for a threshold the percentage really spent
 * ("97%" when the 90 % threshold is the highest reached), never the threshold's own number.
 */
export function spendAlertTitle(alert: number | 'projected', budget: number, spend: Cents): string {
  return alert === 'projected'
    ? `You are projected to exceed your ${formatBudget(budget)} monthly budget`
    : `You have used ${usedPercent(spend, budget)}% of your ${formatBudget(budget)} monthly budget`;
}

/**
 * The billing page's banner once a threshold is reached, with the percentage really spent ("You have
 * used 97% of your $200 monthly budget"), else the projection passing the budget; null when neither.
 * Destructive once the spend reaches the budget.
 */
export function spendAlertBanner(figures: SpendFigures): SpendAlertBanner | null {
  const spent = formatCents(figures.spend);
  const budget = formatCents(figures.budget * 100);
  const projected = formatCents(figures.projected);
  const top = reachedThresholds(figures).at(-1);
  if (top !== undefined) {
    return {
      tone: spendLevel(figures) === 'over' ? 'destructive' : 'warning',
      title: spendAlertTitle(top, figures.budget, figures.spend),
      detail: `${spent} spent so far this billing cycle against a ${budget} monthly budget; ${projected} projected by its end.`,
    };
  }
  if (projectedToExceed(figures)) {
    return {
      tone: 'warning',
      title: spendAlertTitle('projected', figures.budget, figures.spend),
      detail: `${spent} spent so far this billing cycle; ${projected} projected by its end, above the ${budget} budget.`,
    };
  }
  return null;
}
