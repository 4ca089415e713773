import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { projectRefSchema } from './common.ts';

/** The days usage can be asked about: anything outside is no day of this product's life. */
export const FIRST_USAGE_DAY = '2000-01-01';
export const LAST_USAGE_DAY = '2100-12-31';
const MAX_DAYS = 366;

/**
 * A real calendar day, YYYY-MM-DD (ISO 8601's regular expression knows month lengths and leap years:
 * 2024-02-30 is no day), within the product's range. Dates reach SQL, where one that is no day (or the
 * year 0) is an error: they are checked here.
 */
export function usageDaySchema(label: string, requiredMessage: string) {
  return documented(
    z.iso
      .date({
        error: (issue) =>
          issue.input === undefined
            ? requiredMessage
            : `${label} must be a calendar day, YYYY-MM-DD`,
        abort: true,
      })
      .check(z.maxLength(10))
      .check(
        z.refine((day) => day >= FIRST_USAGE_DAY && day <= LAST_USAGE_DAY, {
          error: `${label} must be between ${FIRST_USAGE_DAY} and ${LAST_USAGE_DAY}`,
        }),
      ),
    { description: `A calendar day from ${FIRST_USAGE_DAY} to ${LAST_USAGE_DAY}` },
  );
}

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

/** GET /usage/daily: two days (inclusive), at most a year apart, and optionally one project. */
export const usageDailyQuerySchema = z
  .object({
    start: usageDaySchema('start', 'Start date is required'),
    end: usageDaySchema('end', 'End date is required'),
    projectRef: z.optional(projectRefSchema),
  })
  .check(
    z.refine((query) => query.start <= query.end, {
      message: 'end must not be before start',
      path: ['end'],
    }),
  )
  .check(
    z.refine((query) => dayNumber(query.end) - dayNumber(query.start) <= MAX_DAYS, {
      message: 'At most a year of days at once',
      path: ['end'],
    }),
  );
export type UsageDailyQuery = z.output<typeof usageDailyQuerySchema>;
