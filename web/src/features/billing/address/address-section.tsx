import { hasPermission } from '@meterline/domain';
import { ErrorState } from '../../../components/error-state';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { useCustomerQuery } from '../../../data/customer-query';
import { useTaxIdQuery } from '../../../data/tax-id-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerAddressNotice } from '../partner-notices';
import { BillingDataForm } from './billing-data-form';

export function AddressSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="address" role={role}>
      {organization.billing_via_partner ? (
        <PartnerAddressNotice organization={organization} />
      ) : (
        <BillingData slug={organization.slug} role={role} />
      )}
    </BillingSection>
  );
}

/** Rendered only with billing read on the customer (the frame shows its notice otherwise). */
function BillingData({ slug, role }: Pick<BillingSectionProps, 'role'> & { slug: string }) {
  const canReadTaxId = hasPermission(role, 'billing_read:tax_ids');
  const customer = useCustomerQuery(slug);
  const taxId = useTaxIdQuery(slug, { enabled: canReadTaxId });

  if (customer.isError || taxId.isError) {
    return (
      <ErrorState
        title="Failed to retrieve organization customer profile"
        error={customer.error ?? taxId.error}
        onRetry={() => {
          if (customer.isError) void customer.refetch();
          if (taxId.isError) void taxId.refetch();
        }}
      />
    );
  }
  if (customer.isPending || (canReadTaxId && taxId.isPending)) return <BillingDataSkeleton />;

  return (
    <BillingDataForm
      key={slug}
      slug={slug}
      profile={customer.data}
      taxId={taxId.data ?? null}
      canWrite={hasPermission(role, 'billing_write:customer')}
    />
  );
}

function SkeletonField({ wide = false }: { wide?: boolean }) {
  return (
    <div className={wide ? 'space-y-2 sm:col-span-2' : 'space-y-2'}>
      <Skeleton className="h-4 w-24" />
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

function BillingDataSkeleton() {
  return (
    <LoadingRegion label="Loading billing address and tax ID">
      <div className="grid gap-4 sm:grid-cols-2">
        <SkeletonField wide />
        <SkeletonField wide />
        <SkeletonField wide />
        <SkeletonField />
        <SkeletonField />
        <SkeletonField />
        <SkeletonField />
      </div>
      <div className="mt-6 grid gap-4 border-t pt-5 sm:grid-cols-2">
        <SkeletonField />
        <SkeletonField />
      </div>
    </LoadingRegion>
  );
}
