import type { Cents } from '../../money/cents.ts';
import type { SpendAlertKey } from './spend-alert-schema.ts';

export interface SpendFigures {
  /** Whole US dollars. */
  budget: number;
  /** Percentages, any order. */
  thresholds: readonly number[];
  /** The cycle's spend so far (the upcoming invoice's amount_total). */
  spend: Cents;
  /** The cycle's projection (amount_projected). */
  projected: Cents;
}

/**
 * Whether `spend` has reached `percent` % of a budget of `budget` dollars: percent % of $B is B × percent
 * cents, so the comparison stays in integers.
 */
export function reachesThreshold(spend: Cents, budget: number, percent: number): boolean {
  return spend >= budget * percent;
}

/** The thresholds the spend so far has reached, ascending. */
export function reachedThresholds(figures: SpendFigures): number[] {
  return [...figures.thresholds]
    .sort((a, b) => a - b)
    .filter((percent) => reachesThreshold(figures.spend, figures.budget, percent));
}

/** The projection passes the budget while the spend so far has not reached it. */
export function projectedToExceed(figures: SpendFigures): boolean {
  const budgetCents = figures.budget * 100;
  return figures.projected > budgetCents && figures.spend < budgetCents;
}

/**
 * The alerts to send now: every reached threshold not sent this cycle (ascending), and one "projected"
 * alert when the projection passes the budget before the spend does, unless it was sent this cycle.
 * Each key is sent once per cycle (`sent` is what this cycle already sent).
 */
export function newSpendAlerts(
  figures: SpendFigures,
  sent: Iterable<SpendAlertKey>,
): SpendAlertKey[] {
  const already = new Set<SpendAlertKey>(sent);
  const alerts: SpendAlertKey[] = [];
  if (projectedToExceed(figures) && !already.has('projected')) alerts.push('projected');
  for (const percent of reachedThresholds(figures)) {
    if (!already.has(percent)) alerts.push(percent);
  }
  return alerts;
}
