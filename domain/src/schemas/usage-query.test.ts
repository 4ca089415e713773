import { describe, expect, it } from 'vitest';
import { usageDailyQuerySchema } from './usage-query.ts';

const messages = (query: Record<string, string>) =>
  usageDailyQuerySchema.safeParse(query).error?.issues.map((issue) => issue.message);

describe('usageDailyQuerySchema', () => {
  it('accepts two calendar days, a leap day included', () => {
    const query = { start: '2024-02-01', end: '2024-02-29', projectRef: 'acmepro1' };
    expect(usageDailyQuerySchema.parse(query)).toEqual(query);
  });

  it.each([
    [{ start: '2024-02-30', end: '2024-03-01' }, 'start must be a calendar day, YYYY-MM-DD'],
    [{ start: '2023-02-29', end: '2023-03-01' }, 'start must be a calendar day, YYYY-MM-DD'],
    [{ start: '2024-01-01', end: '2024-13-01' }, 'end must be a calendar day, YYYY-MM-DD'],
    [{ start: '2024-1-1', end: '2024-01-02' }, 'start must be a calendar day, YYYY-MM-DD'],
    [{ start: '0000-01-01', end: '0000-01-02' }, 'start must be between 2000-01-01 and 2100-12-31'],
    [{ start: '2100-12-31', end: '2101-01-01' }, 'end must be between 2000-01-01 and 2100-12-31'],
    [{ end: '2024-01-01' }, 'Start date is required'],
    [{ start: '2024-01-02', end: '2024-01-01' }, 'end must not be before start'],
    [{ start: '2024-01-01', end: '2025-01-02' }, 'At most a year of days at once'],
  ])('refuses %j with "%s"', (query, message) => {
    expect(messages(query)?.[0]).toBe(message);
  });
});
