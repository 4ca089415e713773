import type { ComponentType, ReactNode } from 'react';
import { parseBillingSource, visibleBillingSections, type BillingSection } from '@meterline/domain';
import { ArrowLeft, Receipt } from 'lucide-react';
import { Link, useSearchParams } from '../../lib/router';
import { useOrganizationRole, useProfile } from '../../session/profile-context';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { Button } from '../../components/ui/button';
import { useOrganization } from '../../session/use-organization';
import { AddressSection } from './address/address-section';
import { BillingPageNav } from './billing-page-nav';
import type { BillingSectionProps } from './billing-section';
import { CostControlSection } from './cost-control/cost-control-section';
import { CreditsBalanceSection } from './credits-balance/credits-balance-section';
import { EmailSection } from './email/email-section';
import { InvoicesSection } from './invoices/invoices-section';
import { PaymentMethodsSection } from './payment-methods/payment-methods-section';
import { ComposedSection } from './composed-section';
import { SubscriptionSection } from './subscription/subscription-section';
import { UpcomingInvoiceSection } from './upcoming-invoice/upcoming-invoice-section';
import { useBillingPanel } from './use-billing-panel';
import { useBillingScroll, useTrackBillingView } from './use-billing-page-effects';
import { usePageTitle } from '../../lib/page-title';

const SECTION_COMPONENTS: Record<BillingSection, ComponentType<BillingSectionProps>> = {
  subscription: SubscriptionSection,
  'cost-control': CostControlSection,
  'spend-alerts': ComposedSection('spend-alerts'),
  breakdown: UpcomingInvoiceSection,
  invoices: InvoicesSection,
  'payment-methods': PaymentMethodsSection,
  'credits-balance': CreditsBalanceSection,
  email: EmailSection,
  address: AddressSection,
};

/**
 * /org/:slug/billing: the sections the domain says this organization shows, in its order. `panels` are
 * the side panels and dialogs that app/ composes around the page (the plan panel and what it opens).
 */
export function BillingPage({
  panels,
  subscriptionExtra,
  spendAlerts,
  banner,
}: {
  panels?: ReactNode;
  /** Composed by app/ into the subscription section (a scheduled plan change). */
  subscriptionExtra?: ReactNode;
  /** Composed by app/: the spend alerts section's content (features/spend-alerts). */
  spendAlerts?: ReactNode;
  /** Composed by app/: a banner above the sections (a spend alert reached). */
  banner?: ReactNode;
}) {
  const organization = useOrganization();
  const profile = useProfile();
  const role = useOrganizationRole(organization.slug);
  const [params] = useSearchParams();
  const { panel } = useBillingPanel();
  const source = parseBillingSource(params.get('source'));
  usePageTitle('Billing', organization.name);

  useTrackBillingView(organization.slug, source);
  useBillingScroll(panel);

  const sections = visibleBillingSections({
    disabledFeatures: profile.disabled_features,
    planId: organization.plan.id,
    billedViaPartner: organization.billing_via_partner,
  });

  return (
    <>
      <PageHeader
        title="Billing"
        description={`Subscription, invoices and billing details for ${organization.name}.`}
      />
      {sections.length === 0 ? (
        <EmptyState
          icon={Receipt}
          title="Billing isn't available for this organization"
          description="There is nothing to manage here right now."
          action={
            <Button asChild>
              <Link to={`/org/${encodeURIComponent(organization.slug)}`}>
                <ArrowLeft aria-hidden />
                Back to {organization.name}
              </Link>
            </Button>
          }
        />
      ) : (
        <>
          {banner}
          <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_11rem] lg:gap-10">
            {/* First in the tab order (right after the header), drawn in the right-hand column. */}
            <BillingPageNav sections={sections} />
            <div className="space-y-5 lg:col-start-1 lg:row-start-1">
              {sections.map((section) => {
                const Section = SECTION_COMPONENTS[section];
                return (
                  <Section
                    key={section}
                    organization={organization}
                    role={role}
                    extra={
                      section === 'subscription'
                        ? subscriptionExtra
                        : section === 'spend-alerts'
                          ? spendAlerts
                          : undefined
                    }
                  />
                );
              })}
            </div>
          </div>
        </>
      )}
      {panels}
    </>
  );
}
