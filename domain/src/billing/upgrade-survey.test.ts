import { describe, expect, it } from 'vitest';
import {
  NONE_OF_THE_ABOVE,
  UPGRADE_REASONS,
  UPGRADE_SURVEY_REASON_REQUIRED,
  upgradeSurveyFormSchema,
  upgradeSurveyReasons,
} from './upgrade-survey.ts';

describe('upgrade survey reasons', () => {
  it('offers free to pro the base reasons, compute and features, then "None of the above"', () => {
    expect(upgradeSurveyReasons('free', 'pro')).toEqual([
      'Current plan limits are not enough for me',
      UPGRADE_REASONS.support,
      UPGRADE_REASONS.migrating,
      'Need more compute',
      UPGRADE_REASONS.features,
      NONE_OF_THE_ABOVE,
    ]);
  });

  it('offers an upgrade to team the compliance reason and not the free-to-pro ones', () => {
    for (const from of ['free', 'pro'] as const) {
      const reasons = upgradeSurveyReasons(from, 'team');
      expect(reasons).toContain('I want access to SOC2 and HIPAA compliance');
      expect(reasons).not.toContain('Need more compute');
      expect(reasons.at(-1)).toBe('None of the above');
    }
  });

  it('keeps every list free of repeats', () => {
    for (const [from, to] of [
      ['free', 'pro'],
      ['free', 'team'],
      ['pro', 'team'],
    ] as const) {
      const reasons = upgradeSurveyReasons(from, to);
      expect(new Set(reasons).size).toBe(reasons.length);
    }
  });
});

describe('upgrade survey form', () => {
  it('needs at least one reason, in the spec words', () => {
    const result = upgradeSurveyFormSchema.safeParse({ reasons: [], additionalFeedback: '' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      UPGRADE_SURVEY_REASON_REQUIRED,
    ]);
    expect(UPGRADE_SURVEY_REASON_REQUIRED).toBe(
      'Please select at least one reason for upgrading your subscription.',
    );
  });

  it('trims the optional text', () => {
    expect(
      upgradeSurveyFormSchema.parse({
        reasons: ['Need more compute'],
        additionalFeedback: '  more memory  \n',
      }),
    ).toEqual({ reasons: ['Need more compute'], additionalFeedback: 'more memory' });
    expect(
      upgradeSurveyFormSchema.parse({ reasons: [NONE_OF_THE_ABOVE], additionalFeedback: '   ' })
        .additionalFeedback,
    ).toBe('');
  });
});
