import type { PlanId } from '@meterline/domain';
import type { Db } from '../db/database.ts';
import type { SurveyResponsesTable } from '../db/schema.ts';

export interface NewSurveyResponse {
  id: string;
  kind: SurveyResponsesTable['kind'];
  userId: string;
  organizationId: string | null;
  organizationSlug: string | null;
  projectRef: string | null;
  exitAction: SurveyResponsesTable['exit_action'];
  prevPlan: PlanId | null;
  currentPlan: PlanId | null;
  reasons: readonly string[];
  additionalFeedback: string | null;
}

export async function insertSurveyResponse(db: Db, response: NewSurveyResponse): Promise<Date> {
  const row = await db
    .insertInto('survey_responses')
    .values({
      id: response.id,
      kind: response.kind,
      user_id: response.userId,
      organization_id: response.organizationId,
      organization_slug: response.organizationSlug,
      project_ref: response.projectRef,
      exit_action: response.exitAction,
      prev_plan: response.prevPlan,
      current_plan: response.currentPlan,
      reasons: JSON.stringify(response.reasons),
      additional_feedback: response.additionalFeedback,
    })
    .returning('created_at')
    .executeTakeFirstOrThrow();
  return row.created_at;
}

/** Every answer since `since`, oldest first, with who gave it (their email, while they exist). */
export function listSurveyResponsesSince(db: Db, since: Date) {
  return db
    .selectFrom('survey_responses')
    .leftJoin('users', 'users.id', 'survey_responses.user_id')
    .select([
      'survey_responses.id',
      'survey_responses.kind',
      'survey_responses.created_at',
      'users.email as user_email',
      'survey_responses.organization_slug',
      'survey_responses.project_ref',
      'survey_responses.exit_action',
      'survey_responses.prev_plan',
      'survey_responses.current_plan',
      'survey_responses.reasons',
      'survey_responses.additional_feedback',
    ])
    .where('survey_responses.created_at', '>=', since)
    .orderBy('survey_responses.created_at')
    .orderBy('survey_responses.id')
    .execute();
}

export type SurveyResponseRow = Awaited<ReturnType<typeof listSurveyResponsesSince>>[number];
