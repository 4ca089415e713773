import {
  parseDashList,
  type DowngradeSurvey,
  type SurveyResponse,
  type UpgradeSurvey,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure, NOT_FOUND_ORG } from '../../lib/failure.ts';
import { findMembership } from '../../repositories/organizations.ts';
import { findProjectForUser } from '../../repositories/projects.ts';
import {
  insertSurveyResponse,
  type NewSurveyResponse,
} from '../../repositories/survey-responses.ts';
import { newId } from '../../lib/ids.ts';

export const PROJECT_NOT_FOUND = 'Project not found';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Empty feedback is no feedback. */
const feedback = (text: string | undefined) => (text ? text : null);

/** The organization an answer is about, when named: only a member may answer about it. */
async function organizationOf(db: Db, userId: string, slug: string | undefined) {
  if (slug === undefined) return null;
  const membership = await findMembership(db, slug, userId);
  if (!membership) throw new Failure('not_found', NOT_FOUND_ORG);
  return { id: membership.organizationId, slug: membership.slug };
}

async function record(db: Db, response: Omit<NewSurveyResponse, 'id'>): Promise<SurveyResponse> {
  const id = newId('sr');
  const createdAt = await insertSurveyResponse(db, { id, ...response });
  return { id, created_at: seconds(createdAt) };
}

/**
 * Stores an exit survey answer. A project, when named, must be one the user can see, and in the named
 * organization when both are given; the organization of the answer is then the project's.
 */
export async function recordDowngradeSurvey(
  db: Db,
  userId: string,
  survey: DowngradeSurvey,
): Promise<SurveyResponse> {
  let organization = await organizationOf(db, userId, survey.orgSlug);
  if (survey.projectRef !== undefined) {
    const found = await findProjectForUser(db, survey.projectRef, userId);
    const elsewhere = organization && found?.project.organization_slug !== organization.slug;
    if (!found || elsewhere) throw new Failure('not_found', PROJECT_NOT_FOUND);
    organization ??= await organizationOf(db, userId, found.project.organization_slug);
  }
  return record(db, {
    kind: 'downgrade',
    userId,
    organizationId: organization?.id ?? null,
    organizationSlug: organization?.slug ?? null,
    projectRef: survey.projectRef ?? null,
    exitAction: survey.exitAction,
    prevPlan: null,
    currentPlan: null,
    reasons: parseDashList(survey.reasons),
    additionalFeedback: feedback(survey.additionalFeedback || survey.message),
  });
}

export async function recordUpgradeSurvey(
  db: Db,
  userId: string,
  survey: UpgradeSurvey,
): Promise<SurveyResponse> {
  const organization = await organizationOf(db, userId, survey.orgSlug);
  return record(db, {
    kind: 'upgrade',
    userId,
    organizationId: organization?.id ?? null,
    organizationSlug: organization?.slug ?? null,
    projectRef: null,
    exitAction: null,
    prevPlan: survey.prevPlan,
    currentPlan: survey.currentPlan,
    reasons: survey.reasons,
    additionalFeedback: feedback(survey.additionalFeedback),
  });
}
