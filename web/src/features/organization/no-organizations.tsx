import { Building2 } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';
import { AppHeader } from '../../layout/app-header';
import { usePageTitle } from '../../lib/page-title';

/** A signed-in user who belongs to no organization has nothing to open. */
export function NoOrganizations() {
  usePageTitle();
  return (
    <>
      <AppHeader userMenu />
      <main id="main" className="mx-auto w-full max-w-2xl flex-1 px-4 py-16 sm:px-6">
        <EmptyState
          icon={Building2}
          title="You're not a member of any organization"
          description="Ask an owner or administrator of your organization to invite you, then sign in again."
        />
      </main>
    </>
  );
}
