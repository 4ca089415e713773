import {
  errorResponseSchema,
  orgParamsSchema,
  organizationSchema,
  organizationSummarySchema,
  organizationUpdateSchema,
  projectSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import {
  getOrganization,
  listOrganizationsOfUser,
  updateOrganization,
} from '../repositories/organizations.ts';
import { listProjects } from '../repositories/projects.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

const organizationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/organizations',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['organizations'],
        summary: 'The organizations the signed-in user belongs to',
        response: { 200: z.array(organizationSummarySchema), 401: errorResponseSchema },
      },
    },
    async (request) => {
      const organizations = await listOrganizationsOfUser(db, requireUser(request).id);
      return organizations.map(({ role: _role, ...summary }) => summary);
    },
  );

  app.get(
    '/platform/organizations/:slug',
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['organizations'],
        summary: 'Organization details',
        params: orgParamsSchema,
        response: { 200: organizationSchema, ...errors },
      },
    },
    async (request) => getOrganization(db, requireOrg(request).organizationId),
  );

  app.patch(
    '/platform/organizations/:slug',
    {
      config: { access: { kind: 'org', permission: 'update:organizations' } },
      schema: {
        tags: ['organizations'],
        summary: 'Update the name, billing email and additional billing email recipients',
        params: orgParamsSchema,
        body: organizationUpdateSchema,
        response: { 200: organizationSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      await updateOrganization(db, organizationId, request.body);
      return getOrganization(db, organizationId);
    },
  );

  app.get(
    '/platform/organizations/:slug/projects',
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['organizations'],
        summary: "The organization's projects",
        params: orgParamsSchema,
        response: { 200: z.array(projectSchema), ...errors },
      },
    },
    async (request) => listProjects(db, requireOrg(request).organizationId),
  );
};

export default organizationRoutes;
