import { errorResponseSchema, freeLimitMembersSchema, orgParamsSchema } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { membersAtFreeProjectLimit } from '../services/restrictions/members-at-free-project-limit.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

const memberRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/organizations/:slug/members/reached-free-project-limit',
    {
      // Part of what the subscription section shows (the downgrade's members modal): every role reads it.
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['organizations'],
        summary: 'Owners and administrators who have reached their free project limit',
        description:
          'A member has reached it when their active projects (active or coming up) in Free ' +
          'organizations they own or administer number at least their free_project_limit. While ' +
          'this list is not empty, a downgrade to Free is refused.',
        params: orgParamsSchema,
        response: { 200: freeLimitMembersSchema, ...errors },
      },
    },
    async (request) => membersAtFreeProjectLimit(db, requireOrg(request).organizationId),
  );
};

export default memberRoutes;
