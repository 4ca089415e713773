import { errorResponseSchema, projectParamsSchema, projectSchema } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireUser } from '../plugins/request-context.ts';
import { findProjectForUser } from '../repositories/projects.ts';

export const RESTRICTED_MESSAGE =
  "This project's organization is restricted: all services are paused until its billing issues are resolved.";

const projectRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/projects/:ref',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['projects'],
        summary: 'A project; answers 402 while its organization is restricted',
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
      if (found.restricted) throw new HttpError(402, RESTRICTED_MESSAGE);
      return found.project;
    },
  );
};

export default projectRoutes;
