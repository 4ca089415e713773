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
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { changedFields, recordAudit } from '../repositories/record-audit.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import {
  billingEmails,
  getOrganization,
  listOrganizationsOfUser,
  updateOrganization,
} from '../repositories/organizations.ts';
import { listProjects } from '../repositories/projects.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

const organizationRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (
  app,
  { db, clock },
) => {
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
      await db.transaction().execute(async (trx) => {
        const before = await billingEmails(trx, organizationId);
        await updateOrganization(trx, organizationId, request.body);
        // The name is not billing data; the recipients of billing mail are.
        const changed = changedFields(before, await billingEmails(trx, organizationId));
        if (!changed) return;
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'billing_emails.updated',
          target: { type: 'organization', id: organizationId },
          ...changed,
          at: clock.now(),
        });
      });
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
