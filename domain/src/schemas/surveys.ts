import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { projectRefSchema, slugSchema, textPattern } from './common.ts';

/**
 * The exit survey (after a downgrade is confirmed) and the upgrade survey (after an upgrade succeeds),
 * spec §5 and §7. Their answers are stored for the product team and exported by the operator CLI; a
 * survey never blocks or undoes a change.
 *
 * `reasons` differs between the two as the spec's clients send them: the exit survey sends one string,
 * a "dash list" (one reason per line, each line starting with "- "; a bare line is a reason too), the
 * upgrade survey an array of strings. Reason wording is ours (the lists below); the server accepts any
 * wording within the bounds, so a client written against another wording still records its answers.
 */
export const DOWNGRADE_REASON_REQUIRED = 'Please select a reason for canceling your subscription.';
export const UPGRADE_REASON_REQUIRED =
  'Please select at least one reason for upgrading your subscription.';

export const EXIT_ACTIONS = ['downgrade', 'delete'] as const;
export type ExitAction = (typeof EXIT_ACTIONS)[number];

/** Bounds: generous for people, small enough for a table nobody has to prune. */
export const SURVEY_REASON_MAX = 200;
export const SURVEY_REASONS_MAX = 20;
export const SURVEY_REASON_LIST_MAX = 4000;
export const SURVEY_FEEDBACK_MAX = 5000;

// Free text may span lines (tabs and line breaks), nothing else below the space.
const MULTILINE_TEXT = textPattern('\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f');

/** The reasons of a dash list, in order: one per non-empty line, without its leading dash. */
export function parseDashList(list: string): string[] {
  return list
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^[-*•]\s*/, '')
        .trim(),
    )
    .filter((reason) => reason.length > 0);
}

/** The dash list the exit survey sends for the reasons chosen. */
export function toDashList(reasons: readonly string[]): string {
  return reasons.map((reason) => `- ${reason}`).join('\n');
}

const additionalFeedbackSchema = documented(
  z.optional(
    z
      .string({ error: 'additionalFeedback must be text' })
      .check(z.trim())
      .check(
        z.maxLength(
          SURVEY_FEEDBACK_MAX,
          `additionalFeedback must be at most ${SURVEY_FEEDBACK_MAX} characters`,
        ),
      )
      .check(z.regex(MULTILINE_TEXT, 'additionalFeedback must not contain control characters')),
  ),
  { description: 'Trimmed; empty is the same as absent' },
);

const planSchema = (field: string) =>
  z.enum(PLAN_IDS, { error: `${field} must be one of ${PLAN_IDS.join(', ')}` });

export const downgradeSurveySchema = documented(
  z.strictObject({
    projectRef: documented(z.optional(projectRefSchema), {
      description: 'The project, when deleting one',
    }),
    orgSlug: documented(z.optional(slugSchema), {
      description: 'The organization; the caller must be a member',
    }),
    reasons: documented(
      z
        .string({ error: DOWNGRADE_REASON_REQUIRED })
        .check(
          z.maxLength(
            SURVEY_REASON_LIST_MAX,
            `reasons must be at most ${SURVEY_REASON_LIST_MAX} characters`,
          ),
        )
        .check(z.regex(MULTILINE_TEXT, 'reasons must not contain control characters'))
        .check(z.refine((list) => parseDashList(list).length > 0, DOWNGRADE_REASON_REQUIRED))
        .check(
          z.refine(
            (list) => parseDashList(list).length <= SURVEY_REASONS_MAX,
            `reasons may list at most ${SURVEY_REASONS_MAX} reasons`,
          ),
        )
        .check(
          z.refine(
            (list) => parseDashList(list).every((reason) => reason.length <= SURVEY_REASON_MAX),
            `Each reason must be at most ${SURVEY_REASON_MAX} characters`,
          ),
        ),
      { description: 'A dash list: one reason per line, each starting with "- "' },
    ),
    additionalFeedback: additionalFeedbackSchema,
    message: documented(additionalFeedbackSchema, {
      description:
        'The same as additionalFeedback, as some clients name it; additionalFeedback wins',
    }),
    exitAction: z.enum(EXIT_ACTIONS, { error: 'exitAction must be downgrade or delete' }),
  }),
  { id: 'DowngradeSurvey' },
);
export type DowngradeSurvey = z.infer<typeof downgradeSurveySchema>;

export const upgradeSurveySchema = documented(
  z.strictObject({
    orgSlug: slugSchema,
    prevPlan: planSchema('prevPlan'),
    currentPlan: planSchema('currentPlan'),
    reasons: z
      .array(
        z
          .string({ error: 'Each reason must be text' })
          .check(z.trim())
          .check(z.minLength(1, 'A reason must not be empty'))
          .check(
            z.maxLength(
              SURVEY_REASON_MAX,
              `Each reason must be at most ${SURVEY_REASON_MAX} characters`,
            ),
          )
          .check(z.regex(MULTILINE_TEXT, 'A reason must not contain control characters')),
        { error: UPGRADE_REASON_REQUIRED },
      )
      .check(z.minLength(1, UPGRADE_REASON_REQUIRED))
      .check(
        z.maxLength(SURVEY_REASONS_MAX, `reasons may list at most ${SURVEY_REASONS_MAX} reasons`),
      ),
    additionalFeedback: additionalFeedbackSchema,
  }),
  { id: 'UpgradeSurvey' },
);
export type UpgradeSurvey = z.infer<typeof upgradeSurveySchema>;

export const surveyResponseSchema = documented(
  z.object({
    id: z.string(),
    created_at: documented(z.number().check(z.int()), { description: 'unix seconds' }),
  }),
  { id: 'SurveyResponse' },
);
export type SurveyResponse = z.infer<typeof surveyResponseSchema>;
