import { useParams } from '../../lib/router';
import { PartnerStandIn } from './partner-stand-in';

/** /partners/vercel/installations/:installationId (and its sub-pages, e.g. /invoices). */
export function VercelInstallationPage() {
  const { installationId = '', '*': subPage = '' } = useParams();
  const page = subPage.replace(/\/+$/, '');
  return (
    <PartnerStandIn
      partner="Vercel"
      heading="Vercel integration installation"
      details={[
        { label: 'Installation', value: installationId },
        ...(page ? [{ label: 'Page', value: page }] : []),
      ]}
    />
  );
}
