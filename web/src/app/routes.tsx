import type { RouteObject } from 'react-router';
import { SignInPage } from '../features/auth/sign-in-page';
import { OrganizationLayout } from './organization-layout';
import { OrganizationProjectsPage } from '../features/organization/organization-projects-page';
import { PayInvoicePage } from '../features/pay/pay-invoice-page';
import { AwsMarketplacePage } from '../features/partners/aws-marketplace-page';
import { VercelInstallationPage } from '../features/partners/vercel-installation-page';
import { ProjectPage } from '../features/project/project-page';
import { UsagePage } from '../features/usage/usage-page';
import { WebhooksPage } from '../features/webhooks/webhooks-page';
import { AccessTokensPage } from '../features/access-tokens/access-tokens-page';
import { AuditLogPage } from '../features/audit-log/audit-log-page';
import { BillingRoute } from './billing-composition';
import { HomeRedirect } from './home-redirect';
import { RequireAuth } from './require-auth';
import { NotFoundPage, RootLayout, RouteErrorScreen } from './root-layout';

/** Every route of the app; main.tsx mounts them in a browser router, tests in a memory router. */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      { path: 'sign-in', element: <SignInPage /> },
      // Stand-ins for the partners' consoles, the default targets of the "Manage" links.
      {
        path: 'partners/vercel/installations/:installationId/*',
        element: <VercelInstallationPage />,
      },
      { path: 'partners/aws-marketplace/:slug', element: <AwsMarketplacePage /> },
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <HomeRedirect /> },
          {
            path: 'org/:slug',
            element: <OrganizationLayout />,
            children: [
              { index: true, element: <OrganizationProjectsPage /> },
              { path: 'billing', element: <BillingRoute /> },
              { path: 'usage', element: <UsagePage /> },
              { path: 'webhooks', element: <WebhooksPage /> },
              { path: 'tokens', element: <AccessTokensPage /> },
              { path: 'audit-log', element: <AuditLogPage /> },
            ],
          },
          {
            path: 'organization/:slug',
            element: <OrganizationLayout />,
            children: [{ path: 'usage', element: <UsagePage /> }],
          },
          { path: 'project/:ref', element: <ProjectPage /> },
          { path: 'pay/invoices/:invoiceId', element: <PayInvoicePage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
