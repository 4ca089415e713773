import { Route, Switch } from 'wouter';
import { SignInPage } from '../features/auth/sign-in-page';
import { lazyPage } from '../lib/router';
import { OrganizationLayout } from './organization-layout';
import { BillingRoute } from './billing-composition';
import { HomeRedirect } from './home-redirect';
import { RequireAuth } from './require-auth';
import { NotFoundPage, RootLayout } from './root-layout';

// The billing page and what frames it load with the app; every other page is its own chunk, fetched
// when it is first shown (the billing page's first load carries only itself).
const VercelInstallationPage = lazyPage(
  async () =>
    (await import('../features/partners/vercel-installation-page')).VercelInstallationPage,
);
const AwsMarketplacePage = lazyPage(
  async () => (await import('../features/partners/aws-marketplace-page')).AwsMarketplacePage,
);
const OrganizationProjectsPage = lazyPage(
  async () =>
    (await import('../features/organization/organization-projects-page')).OrganizationProjectsPage,
);
const UsagePage = lazyPage(async () => (await import('../features/usage/usage-page')).UsagePage);
const WebhooksPage = lazyPage(
  async () => (await import('../features/webhooks/webhooks-page')).WebhooksPage,
);
const AccessTokensPage = lazyPage(
  async () => (await import('../features/access-tokens/access-tokens-page')).AccessTokensPage,
);
const AuditLogPage = lazyPage(
  async () => (await import('../features/audit-log/audit-log-page')).AuditLogPage,
);
const ProjectPage = lazyPage(
  async () => (await import('../features/project/project-page')).ProjectPage,
);
const PayInvoiceRoute = lazyPage(async () => (await import('./pay-invoice-route')).PayInvoiceRoute);
const PayInvoicePage = lazyPage(
  async () => (await import('../features/pay/pay-invoice-page')).PayInvoicePage,
);

/** Every lazy page: tests fetch them all first, so that every page renders at once. */
export const LAZY_PAGES = [
  VercelInstallationPage,
  AwsMarketplacePage,
  OrganizationProjectsPage,
  UsagePage,
  WebhooksPage,
  AccessTokensPage,
  AuditLogPage,
  ProjectPage,
  PayInvoiceRoute,
  PayInvoicePage,
];

/** An organization's page in its frame (top bar, tabs, banners), behind a session. */
function OrganizationPage({ children }: { children: React.ReactNode }) {
  return (
    <RequireAuth>
      <OrganizationLayout>{children}</OrganizationLayout>
    </RequireAuth>
  );
}

/**
 * Every route of the app; main.tsx renders them in the browser's history, tests in one in memory
 * (lib/router). The organization's pages share one frame, which stays while its tabs change.
 */
export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path="/sign-in">
          <SignInPage />
        </Route>
        {/* Stand-ins for the partners' consoles, the default targets of the "Manage" links. */}
        <Route path="/partners/vercel/installations/:installationId/*?">
          <VercelInstallationPage />
        </Route>
        <Route path="/partners/aws-marketplace/:slug">
          <AwsMarketplacePage />
        </Route>
        <Route path="/">
          <RequireAuth>
            <HomeRedirect />
          </RequireAuth>
        </Route>
        <Route path="/org/:slug">
          <OrganizationPage>
            <OrganizationProjectsPage />
          </OrganizationPage>
        </Route>
        <Route path="/org/:slug/billing">
          <OrganizationPage>
            <BillingRoute />
          </OrganizationPage>
        </Route>
        <Route path="/org/:slug/usage">
          <OrganizationPage>
            <UsagePage />
          </OrganizationPage>
        </Route>
        <Route path="/org/:slug/webhooks">
          <OrganizationPage>
            <WebhooksPage />
          </OrganizationPage>
        </Route>
        <Route path="/org/:slug/tokens">
          <OrganizationPage>
            <AccessTokensPage />
          </OrganizationPage>
        </Route>
        <Route path="/org/:slug/audit-log">
          <OrganizationPage>
            <AuditLogPage />
          </OrganizationPage>
        </Route>
        <Route path="/organization/:slug/usage">
          <OrganizationPage>
            <UsagePage />
          </OrganizationPage>
        </Route>
        <Route path="/project/:ref">
          <RequireAuth>
            <ProjectPage />
          </RequireAuth>
        </Route>
        <Route path="/pay/invoices/:invoiceId">
          <PayInvoiceRoute>
            <PayInvoicePage />
          </PayInvoiceRoute>
        </Route>
        <Route>
          <NotFoundPage />
        </Route>
      </Switch>
    </RootLayout>
  );
}
