import { Link, useLocation } from '../lib/router';
import { cn } from '../lib/cn';

type Tab = 'projects' | 'billing' | 'usage' | 'webhooks' | 'tokens' | 'audit-log';

function activeTab(pathname: string): Tab {
  const path = pathname.replace(/\/+$/, '');
  if (path.endsWith('/billing')) return 'billing';
  if (path.endsWith('/usage')) return 'usage';
  if (path.endsWith('/webhooks')) return 'webhooks';
  if (path.endsWith('/tokens')) return 'tokens';
  if (path.endsWith('/audit-log')) return 'audit-log';
  return 'projects';
}

/** The organization's sections, as tabs under the top bar; they scroll sideways on small screens. */
export function OrganizationNav({ slug }: { slug: string }) {
  const { pathname } = useLocation();
  const active = activeTab(pathname);
  const base = `/org/${encodeURIComponent(slug)}`;
  const tabs: { id: Tab; label: string; to: string }[] = [
    { id: 'projects', label: 'Projects', to: base },
    { id: 'billing', label: 'Billing', to: `${base}/billing` },
    { id: 'usage', label: 'Usage', to: `${base}/usage` },
    { id: 'webhooks', label: 'Webhooks', to: `${base}/webhooks` },
    { id: 'tokens', label: 'Access tokens', to: `${base}/tokens` },
    { id: 'audit-log', label: 'Audit log', to: `${base}/audit-log` },
  ];
  return (
    <nav aria-label="Organization" className="overflow-x-auto">
      <ul className="mx-auto flex w-full max-w-6xl gap-1 px-1 sm:px-3 lg:px-5">
        {tabs.map((tab) => {
          const current = tab.id === active;
          return (
            <li key={tab.id}>
              <Link
                to={tab.to}
                aria-current={current ? 'page' : undefined}
                className={cn(
                  'relative flex h-10 items-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors',
                  'after:absolute after:inset-x-2 after:-bottom-px after:h-0.5 after:rounded-full',
                  current
                    ? 'text-foreground after:bg-primary'
                    : 'text-muted-foreground hover:text-foreground',
                )}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
