import {
  customerProfileSchema,
  customerUpdateSchema,
  errorResponseSchema,
  orgParamsSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { changedFields, recordAudit } from '../repositories/record-audit.ts';
import { getCustomerProfile, saveCustomer } from '../repositories/customers.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/** The billing customer: the name and address invoices carry; the recipients come from the organization. */
const customerRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (
  app,
  { db, clock },
) => {
  app.get(
    '/platform/organizations/:slug/customer',
    {
      config: { access: { kind: 'org', permission: 'billing_read:customer' } },
      schema: {
        tags: ['customer'],
        summary: 'The billing name, billing address and additional billing email recipients',
        params: orgParamsSchema,
        response: { 200: customerProfileSchema, ...errors },
      },
    },
    async (request) => getCustomerProfile(db, requireOrg(request).organizationId),
  );

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/platform/organizations/:slug/customer',
    config: { access: { kind: 'org', permission: 'billing_write:customer' } },
    schema: {
      tags: ['customer'],
      summary: 'Replace the billing name and address (PATCH takes the same whole body)',
      description:
        'The address is all there or empty: null, {} or all-blank fields clear it. Additional email ' +
        'recipients are changed with PATCH /platform/organizations/{slug}.',
      params: orgParamsSchema,
      body: customerUpdateSchema,
      response: { 200: customerProfileSchema, 400: errorResponseSchema, ...errors },
    },
    handler: async (request) => {
      const { organizationId } = requireOrg(request);
      return db.transaction().execute(async (trx) => {
        const before = await getCustomerProfile(trx, organizationId);
        await saveCustomer(trx, organizationId, request.body);
        const after = await getCustomerProfile(trx, organizationId);
        const changed = changedFields(
          { billing_name: before.billing_name, address: before.address },
          { billing_name: after.billing_name, address: after.address },
        );
        if (changed) {
          const target = { type: 'customer', id: organizationId } as const;
          await recordAudit(trx, auditContextOf(request), {
            organizationId,
            action: 'customer.updated',
            target,
            ...changed,
            at: clock.now(),
          });
        }
        return after;
      });
    },
  });
};

export default customerRoutes;
