import { describe, expect, it } from 'vitest';
import { formatBudget, spendAlertBanner } from './spend-alert-banner.ts';
import {
  announcedSpendAlert,
  newSpendAlerts,
  reachedThresholds,
  spendLevel,
  usedPercent,
} from './spend-alerts.ts';

const figures = (spend: number, projected = spend, budget = 200) => ({
  budget,
  thresholds: [50, 75, 90, 100],
  spend,
  projected,
});

describe('newSpendAlerts', () => {
  it('sends nothing under the first threshold with the projection inside the budget', () => {
    expect(newSpendAlerts(figures(9_999, 15_000), [])).toEqual([]);
  });

  it('sends a threshold exactly when the spend reaches it', () => {
    expect(newSpendAlerts(figures(10_000, 15_000), [])).toEqual([50]);
    expect(newSpendAlerts(figures(17_999, 19_000), [50])).toEqual([75]);
    expect(newSpendAlerts(figures(18_000, 19_000), [50, 75])).toEqual([90]);
  });

  it('sends every threshold passed at once, each once per cycle', () => {
    expect(newSpendAlerts(figures(25_000, 30_000), [])).toEqual([50, 75, 90, 100]);
    expect(newSpendAlerts(figures(25_000, 30_000), [50, 75, 90, 100])).toEqual([]);
  });

  it('sends one "projected" alert when the projection passes the budget before the spend', () => {
    expect(newSpendAlerts(figures(5_000, 20_001), [])).toEqual(['projected']);
    expect(newSpendAlerts(figures(5_000, 20_000), [])).toEqual([]);
    expect(newSpendAlerts(figures(12_000, 30_000), ['projected'])).toEqual([50]);
    // The spend past the budget already: the thresholds say it, no projection alert.
    expect(newSpendAlerts(figures(20_000, 30_000), [])).toEqual([50, 75, 90, 100]);
  });

  it('a lowered budget reaches the thresholds already passed at once', () => {
    expect(newSpendAlerts(figures(6_000, 9_000, 200), [])).toEqual([]);
    expect(newSpendAlerts(figures(6_000, 9_000, 50), [])).toEqual([50, 75, 90, 100]);
  });

  it('thresholds above 100 % compare against the budget multiplied', () => {
    expect(reachedThresholds({ ...figures(30_000), thresholds: [150, 200] })).toEqual([150]);
  });
});

describe('announcedSpendAlert', () => {
  it('announces one alert: the highest threshold, else the projection', () => {
    expect(announcedSpendAlert([50, 75, 90, 100])).toBe(100);
    expect(announcedSpendAlert(['projected', 50, 75])).toBe(75);
    expect(announcedSpendAlert(['projected'])).toBe('projected');
    expect(announcedSpendAlert([])).toBeNull();
  });
});

describe('usedPercent and spendLevel', () => {
  it('rounds the percentage spent down, so it never claims a threshold not reached', () => {
    expect(usedPercent(19_400, 200)).toBe(97);
    expect(usedPercent(19_999, 200)).toBe(99);
    expect(usedPercent(20_000, 200)).toBe(100);
    expect(usedPercent(0, 200)).toBe(0);
  });

  it('is amber from the first threshold and red from the budget', () => {
    expect(spendLevel(figures(9_999))).toBe('under');
    expect(spendLevel(figures(10_000))).toBe('warning');
    expect(spendLevel(figures(19_999))).toBe('warning');
    expect(spendLevel(figures(20_000))).toBe('over');
    // Without a threshold below 100 %, the bar stays calm until the budget itself.
    expect(spendLevel({ ...figures(19_000), thresholds: [100] })).toBe('under');
  });
});

describe('spendAlertBanner', () => {
  it('states the percentage really spent, not the threshold reached, with the figures', () => {
    expect(spendAlertBanner(figures(19_400, 21_000))).toEqual({
      tone: 'warning',
      title: 'You have used 97% of your $200 monthly budget',
      detail:
        '$194.00 spent so far this billing cycle against a $200.00 monthly budget; $210.00 projected by its end.',
    });
  });

  it('turns destructive from 100 %', () => {
    expect(spendAlertBanner(figures(20_000))?.tone).toBe('destructive');
    expect(spendAlertBanner({ ...figures(25_000), thresholds: [50] })?.tone).toBe('destructive');
  });

  it('warns of the projection before any threshold', () => {
    expect(spendAlertBanner({ ...figures(1_000, 25_000), thresholds: [100] })?.title).toBe(
      'You are projected to exceed your $200 monthly budget',
    );
  });

  it('is null with nothing to say', () => {
    expect(spendAlertBanner(figures(1_000, 2_000))).toBeNull();
  });

  it('formats budgets in whole dollars', () => {
    expect(formatBudget(1_000_000)).toBe('$1,000,000');
  });
});
