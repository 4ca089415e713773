import { describe, expect, it } from 'vitest';
import {
  BUDGET_MESSAGE,
  spendAlertSchema,
  THRESHOLD_MESSAGE,
  THRESHOLDS_COUNT_MESSAGE,
  THRESHOLDS_DISTINCT_MESSAGE,
} from './spend-alert-schema.ts';

const messageOf = (input: unknown) => {
  const result = spendAlertSchema.safeParse(input);
  return result.success ? null : result.error.issues[0]?.message;
};

describe('spendAlertSchema', () => {
  it('defaults the thresholds to 50, 75, 90 and 100 %', () => {
    expect(spendAlertSchema.parse({ budget: 200 })).toEqual({
      budget: 200,
      thresholds: [50, 75, 90, 100],
    });
  });

  it('sorts the thresholds', () => {
    expect(spendAlertSchema.parse({ budget: 1, thresholds: [100, 5, 250] }).thresholds).toEqual([
      5, 100, 250,
    ]);
  });

  it('accepts the bounds', () => {
    expect(messageOf({ budget: 1, thresholds: [1] })).toBeNull();
    expect(messageOf({ budget: 1_000_000, thresholds: [1000] })).toBeNull();
    expect(messageOf({ budget: 5, thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] })).toBeNull();
  });

  it.each([
    [{}, BUDGET_MESSAGE],
    [{ budget: 0 }, BUDGET_MESSAGE],
    [{ budget: 1_000_001 }, BUDGET_MESSAGE],
    [{ budget: 19.5 }, BUDGET_MESSAGE],
    [{ budget: '200' }, BUDGET_MESSAGE],
    [{ budget: 200, thresholds: [] }, THRESHOLDS_COUNT_MESSAGE],
    [{ budget: 200, thresholds: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, THRESHOLDS_COUNT_MESSAGE],
    [{ budget: 200, thresholds: 50 }, THRESHOLDS_COUNT_MESSAGE],
    [{ budget: 200, thresholds: [0] }, THRESHOLD_MESSAGE],
    [{ budget: 200, thresholds: [1001] }, THRESHOLD_MESSAGE],
    [{ budget: 200, thresholds: [50.5] }, THRESHOLD_MESSAGE],
    [{ budget: 200, thresholds: ['50'] }, THRESHOLD_MESSAGE],
    [{ budget: 200, thresholds: [50, 50] }, THRESHOLDS_DISTINCT_MESSAGE],
  ])('refuses %j naming the field', (input, message) => {
    expect(messageOf(input)).toBe(message);
  });

  it('every message names its field', () => {
    expect(BUDGET_MESSAGE).toMatch(/^budget /);
    for (const message of [
      THRESHOLD_MESSAGE,
      THRESHOLDS_COUNT_MESSAGE,
      THRESHOLDS_DISTINCT_MESSAGE,
    ])
      expect(message).toMatch(/^thresholds /);
  });
});
