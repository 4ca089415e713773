import { errorResponseSchema, orgParamsSchema, partnerLinkSchema } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { getOrganization } from '../repositories/organizations.ts';
import { findOrganizationByPartnerIdForUser } from '../repositories/partners.ts';

/** Where "Manage" leads for partner-managed organizations. Targets are configurable templates. */
const partnerRoutes: FastifyPluginAsyncZod<{ db: Db; config: Config }> = async (
  app,
  { db, config },
) => {
  app.get(
    '/platform/integrations/vercel/installations/:installationId/link',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['partners'],
        summary: 'The deployment-platform console link for an installation',
        params: z.object({
          installationId: z
            .string()
            .min(1)
            .max(100)
            .regex(/^[A-Za-z0-9_-]+$/),
        }),
        response: { 200: partnerLinkSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const { installationId } = request.params;
      // Only members of an organization installed through it may look an installation up.
      const org = await findOrganizationByPartnerIdForUser(
        db,
        installationId,
        requireUser(request).id,
      );
      if (!org) throw new HttpError(404, 'Installation not found');
      return {
        url: config.VERCEL_MANAGE_URL.replaceAll(
          '{installationId}',
          encodeURIComponent(installationId),
        ),
      };
    },
  );

  app.get(
    '/platform/organizations/:slug/cloud-marketplace/link',
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['partners'],
        summary: 'The cloud-provider marketplace console link for this organization',
        params: orgParamsSchema,
        response: { 200: partnerLinkSchema, 401: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const org = await getOrganization(db, requireOrg(request).organizationId);
      if (org.managed_by !== 'aws-marketplace') {
        throw new HttpError(404, 'This organization is not managed through the cloud marketplace');
      }
      return {
        url: config.AWS_MARKETPLACE_MANAGE_URL.replaceAll('{slug}', encodeURIComponent(org.slug)),
      };
    },
  );
};

export default partnerRoutes;
