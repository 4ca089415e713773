import { useParams } from '../../lib/router';
import { PartnerStandIn } from './partner-stand-in';

/** /partners/aws-marketplace/:slug */
export function AwsMarketplacePage() {
  const { slug = '' } = useParams();
  return (
    <PartnerStandIn
      partner="AWS Marketplace"
      heading="AWS Marketplace subscription"
      details={[{ label: 'Organization', value: slug }]}
    />
  );
}
