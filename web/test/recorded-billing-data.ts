import { customerProfileSchema, profileSchema, taxIdResponseSchema } from '@meterline/domain';
import customerAcmeFree from './recorded/customer-acme-free.json';
import customerAcmePro from './recorded/customer-acme-pro.json';
import profileDeveloper from './recorded/profile-developer.json';
import taxIdAcmeFree from './recorded/tax-id-acme-free.json';
import taxIdAcmePro from './recorded/tax-id-acme-pro.json';

/**
 * Billing data responses recorded from the API with the demo world (GET /customer and /tax-ids as
 * owner@example.com, GET /profile as developer@example.com), parsed by the app's own schemas.
 */
export const recordedBillingData = {
  customer: {
    acmePro: customerProfileSchema.parse(customerAcmePro),
    acmeFree: customerProfileSchema.parse(customerAcmeFree),
  },
  taxId: {
    acmePro: taxIdResponseSchema.parse(taxIdAcmePro).tax_id,
    acmeFree: taxIdResponseSchema.parse(taxIdAcmeFree).tax_id,
  },
  profile: { developer: profileSchema.parse(profileDeveloper) },
};
