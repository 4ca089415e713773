import {
  downgradeSurveySchema,
  errorResponseSchema,
  surveyResponseSchema,
  upgradeSurveySchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { perUserRateLimit } from '../plugins/rate-limits.ts';
import { requireUser } from '../plugins/request-context.ts';
import { recordDowngradeSurvey, recordUpgradeSurvey } from '../services/surveys/record-survey.ts';

const responses = {
  201: surveyResponseSchema,
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
};
// A person answers a survey now and then; a loop does not fill the table.
const config = { access: { kind: 'user' }, rateLimit: perUserRateLimit(60, '1 minute') } as const;

/** The exit and upgrade surveys: stored for the product team (`npm run billing -- surveys`). */
const feedbackRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.post(
    '/platform/feedback/downgrade',
    {
      config,
      schema: {
        tags: ['feedback'],
        summary: 'Record an exit survey answer (after a downgrade, or a project deletion)',
        description:
          'reasons is a dash list (one reason per line, "- " first). With orgSlug or projectRef, the ' +
          'caller must be a member of that organization (404 otherwise).',
        body: downgradeSurveySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const answer = await recordDowngradeSurvey(db, requireUser(request).id, request.body);
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/platform/feedback/upgrade',
    {
      config,
      schema: {
        tags: ['feedback'],
        summary: 'Record an upgrade survey answer',
        description: 'The caller must be a member of orgSlug (404 otherwise).',
        body: upgradeSurveySchema,
        response: responses,
      },
    },
    async (request, reply) => {
      const answer = await recordUpgradeSurvey(db, requireUser(request).id, request.body);
      return reply.code(201).send(answer);
    },
  );
};

export default feedbackRoutes;
