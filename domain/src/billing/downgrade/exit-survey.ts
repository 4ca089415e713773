/**
 * The exit survey shown before a downgrade (spec §5): ten reasons in a random order with "None of the
 * above" last, one to choose, and a message whose prompt follows the chosen reason. Wording is ours
 * (product-decisions §9).
 */
import { DOWNGRADE_REASON_REQUIRED } from '../../schemas/surveys.ts';
import { NONE_OF_THE_ABOVE } from '../upgrade-survey.ts';

/** The spec's words when no reason is chosen (§5): the same the server answers. */
export const EXIT_SURVEY_REASON_REQUIRED = DOWNGRADE_REASON_REQUIRED;

export interface ExitSurveyReason {
  readonly id: string;
  readonly label: string;
  /** The message field's label once this reason is chosen; null keeps the general prompt. */
  readonly followUp: string | null;
}

export const EXIT_SURVEY_REASONS: readonly ExitSurveyReason[] = [
  {
    id: 'exploring',
    label: 'I was exploring or building a hobby project',
    followUp: 'What would make you come back for your next project?',
  },
  {
    id: 'support',
    label: 'I was not satisfied with the support',
    followUp: 'What went wrong with the support you received?',
  },
  {
    id: 'missing_feature',
    label: 'A feature I need is missing',
    followUp: 'Which feature were you missing?',
  },
  {
    id: 'hard_to_use',
    label: 'The product is hard to use',
    followUp: 'What was hardest to use?',
  },
  {
    id: 'performance',
    label: 'Performance or reliability did not meet my needs',
    followUp: 'What performance or reliability problems did you run into?',
  },
  { id: 'project_cancelled', label: 'My project was cancelled', followUp: null },
  {
    id: 'too_expensive',
    label: 'It is too expensive',
    followUp: 'What price would have felt right for what you use?',
  },
  {
    id: 'unpredictable_pricing',
    label: 'The pricing is hard to predict',
    followUp: 'Which part of your bill was hard to predict?',
  },
  { id: 'company_closed', label: 'My company is shutting down', followUp: null },
  {
    id: 'lost_trust',
    label: 'I lost trust in the platform',
    followUp: 'What made you lose trust in us?',
  },
];

export const NONE_OF_THE_ABOVE_REASON: ExitSurveyReason = {
  id: 'none',
  label: NONE_OF_THE_ABOVE,
  followUp: 'What made you decide to downgrade?',
};

/** The message field's label before a reason is chosen, and for reasons without a follow-up. */
export const EXIT_SURVEY_DEFAULT_PROMPT = 'Anything else you would like to tell us?';

/**
 * The reasons in a random order (Fisher–Yates with `random` in [0, 1)), "None of the above" last. The
 * order keeps a list's first place from drawing the answers.
 */
export function shuffledExitSurveyReasons(random: () => number = Math.random): ExitSurveyReason[] {
  const reasons = [...EXIT_SURVEY_REASONS];
  for (let i = reasons.length - 1; i > 0; i -= 1) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    [reasons[i], reasons[j]] = [reasons[j] as ExitSurveyReason, reasons[i] as ExitSurveyReason];
  }
  return [...reasons, NONE_OF_THE_ABOVE_REASON];
}

export function exitSurveyReason(id: string | null | undefined): ExitSurveyReason | null {
  if (!id) return null;
  if (id === NONE_OF_THE_ABOVE_REASON.id) return NONE_OF_THE_ABOVE_REASON;
  return EXIT_SURVEY_REASONS.find((reason) => reason.id === id) ?? null;
}

/** The message field's label for the chosen reason. */
export function exitSurveyMessageLabel(reasonId: string | null | undefined): string {
  return exitSurveyReason(reasonId)?.followUp ?? EXIT_SURVEY_DEFAULT_PROMPT;
}

/** The spec's "dash list" of the chosen reasons, as the feedback endpoint takes them: "- Too expensive". */
export function exitSurveyReasonsText(labels: readonly string[]): string {
  return labels.map((label) => `- ${label}`).join('\n');
}

export interface ExitSurveyAnswer {
  reasons: string;
  additionalFeedback: string;
}

/**
 * The answer to send, or the spec's message when no reason is chosen. The message is optional and
 * trimmed.
 */
export function exitSurveyAnswer(
  reasonId: string | null | undefined,
  message: string,
): { ok: true; answer: ExitSurveyAnswer } | { ok: false; error: string } {
  const reason = exitSurveyReason(reasonId);
  if (!reason) return { ok: false, error: EXIT_SURVEY_REASON_REQUIRED };
  return {
    ok: true,
    answer: { reasons: exitSurveyReasonsText([reason.label]), additionalFeedback: message.trim() },
  };
}
