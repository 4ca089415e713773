import { describe, expect, it } from 'vitest';
import {
  EXIT_SURVEY_DEFAULT_PROMPT,
  EXIT_SURVEY_REASON_REQUIRED,
  EXIT_SURVEY_REASONS,
  exitSurveyAnswer,
  exitSurveyMessageLabel,
  exitSurveyReasonsText,
  shuffledExitSurveyReasons,
} from './exit-survey.ts';
import { NONE_OF_THE_ABOVE } from '../upgrade-survey.ts';

/** A seeded generator, so a test sees the same "random" order every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('the exit survey reasons', () => {
  it('are the ten reasons of the spec, each once', () => {
    expect(EXIT_SURVEY_REASONS).toHaveLength(10);
    expect(new Set(EXIT_SURVEY_REASONS.map((reason) => reason.id)).size).toBe(10);
    expect(new Set(EXIT_SURVEY_REASONS.map((reason) => reason.label)).size).toBe(10);
  });

  it('mostly have a follow-up prompt', () => {
    const withFollowUp = EXIT_SURVEY_REASONS.filter((reason) => reason.followUp !== null);
    expect(withFollowUp.length).toBeGreaterThan(EXIT_SURVEY_REASONS.length / 2);
  });
});

describe('shuffledExitSurveyReasons', () => {
  it('keeps every reason once and puts "None of the above" last, whatever the order', () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const shuffled = shuffledExitSurveyReasons(seeded(seed));
      expect(shuffled).toHaveLength(11);
      expect(shuffled.at(-1)?.label).toBe(NONE_OF_THE_ABOVE);
      expect(
        shuffled
          .slice(0, 10)
          .map((r) => r.id)
          .toSorted(),
      ).toEqual(EXIT_SURVEY_REASONS.map((r) => r.id).toSorted());
    }
  });

  it('follows the random source: always 0 moves each reason down one place, then wraps', () => {
    const shuffled = shuffledExitSurveyReasons(() => 0);
    const ids = EXIT_SURVEY_REASONS.map((reason) => reason.id);
    expect(shuffled.slice(0, 10).map((reason) => reason.id)).toEqual([...ids.slice(1), ids[0]]);
  });

  it('keeps the catalogue order with a source just below 1', () => {
    const shuffled = shuffledExitSurveyReasons(() => 0.999_999);
    expect(shuffled.slice(0, 10)).toEqual(EXIT_SURVEY_REASONS);
  });

  it('does change the order for some seeds', () => {
    const orders = new Set(
      [1, 2, 3, 4, 5].map((seed) =>
        shuffledExitSurveyReasons(seeded(seed))
          .map((r) => r.id)
          .join(),
      ),
    );
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('exitSurveyMessageLabel', () => {
  it('asks the general question before a reason is chosen', () => {
    expect(exitSurveyMessageLabel(null)).toBe(EXIT_SURVEY_DEFAULT_PROMPT);
    expect(exitSurveyMessageLabel('unknown')).toBe(EXIT_SURVEY_DEFAULT_PROMPT);
  });

  it("follows the chosen reason's prompt, or the general one without a prompt", () => {
    expect(exitSurveyMessageLabel('missing_feature')).toBe('Which feature were you missing?');
    expect(exitSurveyMessageLabel('company_closed')).toBe(EXIT_SURVEY_DEFAULT_PROMPT);
    expect(exitSurveyMessageLabel('none')).toBe('What made you decide to downgrade?');
  });
});

describe('exitSurveyAnswer', () => {
  it('refuses no reason with the spec message', () => {
    expect(exitSurveyAnswer(null, 'hello')).toEqual({
      ok: false,
      error: EXIT_SURVEY_REASON_REQUIRED,
    });
    expect(EXIT_SURVEY_REASON_REQUIRED).toBe(
      'Please select a reason for canceling your subscription.',
    );
  });

  it('sends the reason as a dash list and the trimmed, optional message', () => {
    expect(exitSurveyAnswer('too_expensive', '  $10 would do \n')).toEqual({
      ok: true,
      answer: { reasons: '- It is too expensive', additionalFeedback: '$10 would do' },
    });
    expect(exitSurveyAnswer('none', '')).toEqual({
      ok: true,
      answer: { reasons: '- None of the above', additionalFeedback: '' },
    });
  });

  it('writes several reasons one per line', () => {
    expect(exitSurveyReasonsText(['A', 'B'])).toBe('- A\n- B');
  });
});
