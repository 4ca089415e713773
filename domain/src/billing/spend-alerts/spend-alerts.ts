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
 * The percentage of the budget spent so far, rounded down so it never claims a threshold not yet
 * reached: spend cents over budget dollars is the percentage (S / (B × 100) × 100).
 */
export function usedPercent(spend: Cents, budget: number): number {
  return Math.max(0, Math.floor(spend / budget));
}

export type SpendLevel = 'under' | 'warning' | 'over';

/**
 * How alarmed the budget's bar and banner are: "warning" (amber) once the lowest threshold is
 * reached, "over" (red) once the spend reaches the budget itself.
 */
export function spendLevel(figures: SpendFigures): SpendLevel {
  if (figures.spend >= figures.budget * 100) return 'over';
  return reachedThresholds(figures).length > 0 ? 'warning' : 'under';
}

/**
 * The alerts to record now: every reached threshold not sent this cycle (ascending), and one "projected"
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

/**
 * Of the alerts recorded at once, the one announced (emailed and sent as a webhook event): the highest
 * threshold, since a budget set already exceeded passes several thresholds in one check and its
 * recipients need one message, not one per threshold; else the projection alert. The others are
 * recorded as sent, so none of them is announced later in the cycle.
 */
export function announcedSpendAlert(fresh: readonly SpendAlertKey[]): SpendAlertKey | null {
  const thresholds = fresh.filter((alert): alert is number => alert !== 'projected');
  if (thresholds.length > 0) return Math.max(...thresholds);
  return fresh.includes('projected') ? 'projected' : null;
}
