import { spendAlertSchema } from '@meterline/domain';
import { z } from 'zod/mini';

/** "50, 75, 90, 100" → [50, 75, 90, 100]; what is not a number stays NaN for the shared rule to name. */
function percentages(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim().replace(/%$/, '').trim())
    .filter((part) => part !== '')
    .map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
}

/**
 * The form's fields are text (a dollar amount, a comma-separated list); once read as numbers they go
 * through the same schema the server validates with, with its messages.
 */
export const spendAlertFormSchema = z.object({
  budget: z.pipe(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((text) =>
        /^\d+$/.test(text.replaceAll(',', '')) ? Number(text.replaceAll(',', '')) : Number.NaN,
      ),
    ),
    spendAlertSchema.shape.budget,
  ),
  thresholds: z.pipe(
    z.pipe(z.string(), z.transform(percentages)),
    spendAlertSchema.shape.thresholds.def.innerType,
  ),
});
export type SpendAlertFormInput = z.input<typeof spendAlertFormSchema>;
export type SpendAlertFormOutput = z.output<typeof spendAlertFormSchema>;

export function formValuesOf(state: {
  budget: number | null;
  thresholds: readonly number[];
}): SpendAlertFormInput {
  return {
    budget: state.budget === null ? '' : String(state.budget),
    thresholds: state.thresholds.join(', '),
  };
}
