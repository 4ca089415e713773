import { stringify } from 'csv-stringify/sync';
import type { Db } from '../../db/database.ts';
import { listSurveyResponsesSince } from '../../repositories/survey-responses.ts';

export const SURVEY_CSV_COLUMNS = [
  'id',
  'kind',
  'created_at',
  'user_email',
  'organization_slug',
  'project_ref',
  'exit_action',
  'prev_plan',
  'current_plan',
  'reasons',
  'additional_feedback',
] as const;

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, or a tab or carriage return first) is
 * quoted with an apostrophe: what people typed into a survey is opened in spreadsheets.
 */
export function neutralizeFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** "2026-03-01" as the start of that day in UTC; anything else, or a day that does not exist, is refused. */
export function parseDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return null;
  return date;
}

/** Every survey answer since `since` (inclusive), oldest first, as CSV (RFC 4180) with a header row. */
export async function surveysCsv(db: Db, since: Date): Promise<string> {
  const rows = await listSurveyResponsesSince(db, since);
  const records = rows.map((row) =>
    [
      row.id,
      row.kind,
      row.created_at.toISOString(),
      row.user_email ?? '',
      row.organization_slug ?? '',
      row.project_ref ?? '',
      row.exit_action ?? '',
      row.prev_plan ?? '',
      row.current_plan ?? '',
      row.reasons.join('; '),
      row.additional_feedback ?? '',
    ].map(neutralizeFormula),
  );
  return stringify(records, {
    header: true,
    columns: [...SURVEY_CSV_COLUMNS],
    record_delimiter: 'windows',
  });
}
