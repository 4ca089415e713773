import { PLAN_NAMES, permissionsOf, profileSchema, type Feature } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { requireUser } from '../plugins/request-context.ts';
import { listOrganizationsOfUser } from '../repositories/organizations.ts';

const profileRoutes: FastifyPluginAsyncZod<{
  db: Db;
  disabledFeatures: Feature[];
  projectUpdatesDisabled: boolean;
}> = async (app, { db, disabledFeatures, projectUpdatesDisabled }) => {
  app.get(
    '/platform/profile',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['profile'],
        summary: 'The signed-in user, their organizations, roles and resolved permissions',
        response: { 200: profileSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const organizations = await listOrganizationsOfUser(db, user.id);
      return {
        user,
        organizations: organizations.map((org) => ({
          slug: org.slug,
          name: org.name,
          role: org.role,
          plan: { id: org.plan.id, name: PLAN_NAMES[org.plan.id] },
          permissions: permissionsOf(org.role),
        })),
        disabled_features: disabledFeatures,
        project_updates_disabled: projectUpdatesDisabled,
      };
    },
  );
};

export default profileRoutes;
