import { Navigate } from '../lib/router';
import { NoOrganizations } from '../features/organization/no-organizations';
import { useProfile } from '../session/profile-context';

/** `/` opens the user's first organization. */
export function HomeRedirect() {
  const first = useProfile().organizations[0];
  if (!first) return <NoOrganizations />;
  return <Navigate replace to={`/org/${first.slug}`} />;
}
