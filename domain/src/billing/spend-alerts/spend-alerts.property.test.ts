import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SpendAlertKey } from './spend-alert-schema.ts';
import {
  announcedSpendAlert,
  newSpendAlerts,
  reachedThresholds,
  reachesThreshold,
  usedPercent,
} from './spend-alerts.ts';

const thresholds = fc.uniqueArray(fc.integer({ min: 1, max: 1000 }), {
  minLength: 1,
  maxLength: 10,
});
const budget = fc.integer({ min: 1, max: 1_000_000 });
/** A cycle's spend readings, never going down, with a projection at least the spend. */
const readings = fc
  .array(fc.tuple(fc.nat(5_000_000), fc.nat(5_000_000)), { minLength: 1, maxLength: 20 })
  .map((steps) => {
    let spend = 0;
    return steps.map(([more, extra]) => {
      spend += more;
      return { spend, projected: spend + extra };
    });
  });

describe('spend alerts over a cycle', () => {
  it('each alert is sent at most once, and every reached threshold is sent by the end', () => {
    fc.assert(
      fc.property(budget, thresholds, readings, (budget, thresholds, readings) => {
        const sent: SpendAlertKey[] = [];
        for (const reading of readings)
          sent.push(...newSpendAlerts({ budget, thresholds, ...reading }, sent));
        expect(new Set(sent).size).toBe(sent.length);
        const lastSpend = readings.at(-1)?.spend ?? 0;
        for (const percent of thresholds) {
          expect(sent.includes(percent)).toBe(reachesThreshold(lastSpend, budget, percent));
        }
      }),
    );
  });

  it('the projection alert, when sent, comes before the spend reaches the budget', () => {
    fc.assert(
      fc.property(budget, thresholds, readings, (budget, thresholds, readings) => {
        const sent: SpendAlertKey[] = [];
        for (const reading of readings) {
          const fresh = newSpendAlerts({ budget, thresholds, ...reading }, sent);
          if (fresh.includes('projected')) expect(reading.spend).toBeLessThan(budget * 100);
          sent.push(...fresh);
        }
      }),
    );
  });

  it('one check announces at most one alert: the highest threshold it records', () => {
    fc.assert(
      fc.property(budget, thresholds, readings, (budget, thresholds, readings) => {
        const sent: SpendAlertKey[] = [];
        for (const reading of readings) {
          const fresh = newSpendAlerts({ budget, thresholds, ...reading }, sent);
          const announced = announcedSpendAlert(fresh);
          expect(announced === null).toBe(fresh.length === 0);
          const top = reachedThresholds({ budget, thresholds, ...reading }).at(-1);
          if (fresh.some((alert) => alert !== 'projected')) expect(announced).toBe(top);
          sent.push(...fresh);
        }
      }),
    );
  });

  it('the percentage stated is at least every threshold reached, and below the next', () => {
    fc.assert(
      fc.property(budget, thresholds, fc.nat(200_000_000), (budget, thresholds, spend) => {
        const percent = usedPercent(spend, budget);
        for (const threshold of thresholds)
          expect(percent >= threshold).toBe(reachesThreshold(spend, budget, threshold));
      }),
    );
  });

  it('the answer does not depend on the order the thresholds come in', () => {
    fc.assert(
      fc.property(budget, thresholds, fc.nat(200_000_000), (budget, thresholds, spend) => {
        const figures = { budget, spend, projected: spend };
        expect(newSpendAlerts({ ...figures, thresholds }, [])).toEqual(
          newSpendAlerts({ ...figures, thresholds: [...thresholds].reverse() }, []),
        );
      }),
    );
  });
});
