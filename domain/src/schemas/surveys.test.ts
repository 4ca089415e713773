import { describe, expect, it } from 'vitest';
import {
  DOWNGRADE_REASON_REQUIRED,
  downgradeSurveySchema,
  parseDashList,
  toDashList,
  UPGRADE_REASON_REQUIRED,
  upgradeSurveySchema,
} from './surveys.ts';

const firstMessage = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('the exit survey', () => {
  const valid = { orgSlug: 'acme-pro', reasons: '- It is too expensive', exitAction: 'downgrade' };

  it('reads a dash list, a bare line being a reason too', () => {
    expect(parseDashList('- Too expensive\n-Missing feature\r\n\n  bare line  \n- ')).toEqual([
      'Too expensive',
      'Missing feature',
      'bare line',
    ]);
    expect(parseDashList(toDashList(['a', 'b']))).toEqual(['a', 'b']);
  });

  it('needs a reason, in the spec words', () => {
    for (const reasons of ['', '  ', '-\n- ', undefined]) {
      const result = downgradeSurveySchema.safeParse({ ...valid, reasons });
      expect(firstMessage(result)).toBe(DOWNGRADE_REASON_REQUIRED);
    }
  });

  it('trims the feedback and bounds every string', () => {
    const parsed = downgradeSurveySchema.parse({ ...valid, additionalFeedback: '  why\nnot  ' });
    expect(parsed.additionalFeedback).toBe('why\nnot');
    expect(
      downgradeSurveySchema.safeParse({ ...valid, additionalFeedback: 'x'.repeat(5001) }).success,
    ).toBe(false);
    expect(
      downgradeSurveySchema.safeParse({ ...valid, reasons: `- ${'x'.repeat(201)}` }).success,
    ).toBe(false);
    expect(
      downgradeSurveySchema.safeParse({ ...valid, additionalFeedback: 'a\u0000b' }).success,
    ).toBe(false);
    expect(downgradeSurveySchema.safeParse({ ...valid, exitAction: 'leave' }).success).toBe(false);
    expect(downgradeSurveySchema.safeParse({ ...valid, surprise: 1 }).success).toBe(false);
  });
});

describe('the upgrade survey', () => {
  const valid = {
    orgSlug: 'acme-free',
    prevPlan: 'free',
    currentPlan: 'pro',
    reasons: ['Need more compute'],
  };

  it('needs at least one reason, in the spec words', () => {
    expect(firstMessage(upgradeSurveySchema.safeParse({ ...valid, reasons: [] }))).toBe(
      UPGRADE_REASON_REQUIRED,
    );
    const { reasons: _reasons, ...missing } = valid;
    expect(firstMessage(upgradeSurveySchema.safeParse(missing))).toBe(UPGRADE_REASON_REQUIRED);
  });

  it('trims reasons and feedback, and refuses unknown plans', () => {
    const parsed = upgradeSurveySchema.parse({
      ...valid,
      reasons: [' Need more compute '],
      additionalFeedback: '   ',
    });
    expect(parsed.reasons).toEqual(['Need more compute']);
    expect(parsed.additionalFeedback).toBe('');
    expect(upgradeSurveySchema.safeParse({ ...valid, currentPlan: 'platinum' }).success).toBe(
      false,
    );
    expect(upgradeSurveySchema.safeParse({ ...valid, reasons: Array(21).fill('x') }).success).toBe(
      false,
    );
  });
});
