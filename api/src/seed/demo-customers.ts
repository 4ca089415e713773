import { findTaxIdKind, withVatPrefix } from '@meterline/domain';
import type { Db } from '../db/database.ts';
import { saveCustomer, saveTaxId } from '../repositories/customers.ts';
import { DEMO_ORGANIZATIONS } from './demo-world-data.ts';

const ACME_PRO_ADDRESS = {
  line1: '1 Grand Canal Square',
  line2: 'Grand Canal Harbour',
  city: 'Dublin',
  state: 'Co. Dublin',
  postal_code: 'D02 P820',
  country: 'IE',
};

const BILLING_NAMES: Record<string, string> = {
  'acme-pro': 'Acme Pro Inc.',
  'acme-team': 'Acme Team Ltd.',
  'acme-enterprise': 'Acme Enterprise Corporation',
  'payg-co': 'Pay As You Go Company Ltd.',
};

/**
 * The billing customer of a demo organization: acme-pro gets a full Dublin address and an Irish VAT number
 * (the catalogue's IE kind, prefix included); other paid organizations a billing name only; free ones nothing.
 * Idempotent, so a reseed may call it again.
 */
export async function seedDemoCustomer(
  db: Db,
  organizationId: string,
  slug: string,
): Promise<void> {
  const demo = DEMO_ORGANIZATIONS.find((org) => org.slug === slug);
  if (!demo || demo.plan === 'free') return;
  const billingName = BILLING_NAMES[slug] ?? `${demo.name} Inc.`;

  if (slug !== 'acme-pro') {
    await saveCustomer(db, organizationId, { billing_name: billingName, address: null });
    return;
  }
  await saveCustomer(db, organizationId, { billing_name: billingName, address: ACME_PRO_ADDRESS });
  const kind = findTaxIdKind('eu_vat', 'IE');
  if (!kind) throw new Error('The tax ID catalogue has no IE VAT kind');
  await saveTaxId(db, organizationId, {
    type: kind.type,
    value: withVatPrefix(kind, '9826471FA'),
    country: kind.countryIso2,
  });
}
