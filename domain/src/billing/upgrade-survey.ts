import { z } from 'zod/mini';
import type { PlanId } from '../organization/plans.ts';
import { plainTextSchema } from '../schemas/common.ts';

import { UPGRADE_REASON_REQUIRED } from '../schemas/surveys.ts';

/** The spec's words when no reason is chosen (§5): the same the server answers. */
export const UPGRADE_SURVEY_REASON_REQUIRED = UPGRADE_REASON_REQUIRED;
export const NONE_OF_THE_ABOVE = 'None of the above';

export const UPGRADE_REASONS = {
  limits: 'Current plan limits are not enough for me',
  support: 'I need faster or more personal support',
  migrating: 'I am moving an existing project to Meterline',
  compute: 'Need more compute',
  features: 'I need features the Free plan does not have',
  compliance: 'I want access to SOC2 and HIPAA compliance',
  none: NONE_OF_THE_ABOVE,
} as const;

/**
 * The reasons offered after an upgrade from `from` to `to` (spec §5): the base three; free to pro adds
 * compute and features; an upgrade to team adds compliance; "None of the above" is always last.
 */
export function upgradeSurveyReasons(from: PlanId, to: PlanId): string[] {
  const reasons: string[] = [
    UPGRADE_REASONS.limits,
    UPGRADE_REASONS.support,
    UPGRADE_REASONS.migrating,
  ];
  if (from === 'free' && to === 'pro')
    reasons.push(UPGRADE_REASONS.compute, UPGRADE_REASONS.features);
  if (to === 'team') reasons.push(UPGRADE_REASONS.compliance);
  reasons.push(NONE_OF_THE_ABOVE);
  return reasons;
}

/** How long the optional text may be. */
export const UPGRADE_SURVEY_TEXT_MAX = 2000;

/**
 * The upgrade survey form: at least one reason, and an optional message, trimmed (spec §5). The output is
 * what is sent as `reasons` and `additionalFeedback`.
 */
export const upgradeSurveyFormSchema = z.object({
  reasons: z.array(z.string()).check(z.minLength(1, UPGRADE_SURVEY_REASON_REQUIRED)),
  additionalFeedback: z.pipe(
    z.pipe(
      z.string(),
      z.transform((text) => text.trim()),
    ),
    plainTextSchema('Additional feedback', UPGRADE_SURVEY_TEXT_MAX),
  ),
});
export type UpgradeSurveyFormInput = z.input<typeof upgradeSurveyFormSchema>;
export type UpgradeSurveyFormOutput = z.output<typeof upgradeSurveyFormSchema>;
