import {
  errorResponseSchema,
  projectParamsSchema,
  projectSchema,
  restrictedProjectMessage,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireUser } from '../plugins/request-context.ts';
import { findProjectForUser } from '../repositories/projects.ts';

const projectRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/projects/:ref',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['projects'],
        summary:
          'A project; answers 402 while its organization is restricted, saying why and what lifts it',
        params: projectParamsSchema,
        response: {
          200: projectSchema,
          401: errorResponseSchema,
          402: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const found = await findProjectForUser(db, request.params.ref, requireUser(request).id);
      if (!found) throw new HttpError(404, 'Project not found');
      const { restriction } = found;
      if (restriction) {
        throw new HttpError(402, restrictedProjectMessage(restriction.violations, restriction));
      }
      return found.project;
    },
  );
};

export default projectRoutes;
