import type { RouteObject } from 'react-router';
import { SignInPage } from '../features/auth/sign-in-page';
import { OrganizationLayout } from './organization-layout';
import { BillingRoute } from './billing-composition';
import { HomeRedirect } from './home-redirect';
import { RequireAuth } from './require-auth';
import { NotFoundPage, RootLayout, RouteErrorScreen } from './root-layout';

// The billing page and what frames it load with the app; every other page is its own chunk, fetched
// when a link to it is followed (issue 14, item 5: the billing page's first load carries only itself).

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
        lazy: async () => ({
          Component: (await import('../features/partners/vercel-installation-page'))
            .VercelInstallationPage,
        }),
      },
      {
        path: 'partners/aws-marketplace/:slug',
        lazy: async () => ({
          Component: (await import('../features/partners/aws-marketplace-page')).AwsMarketplacePage,
        }),
      },
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <HomeRedirect /> },
          {
            path: 'org/:slug',
            element: <OrganizationLayout />,
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import('../features/organization/organization-projects-page'))
                    .OrganizationProjectsPage,
                }),
              },
              { path: 'billing', element: <BillingRoute /> },
              { path: 'usage', lazy: usagePage },
              {
                path: 'webhooks',
                lazy: async () => ({
                  Component: (await import('../features/webhooks/webhooks-page')).WebhooksPage,
                }),
              },
              {
                path: 'tokens',
                lazy: async () => ({
                  Component: (await import('../features/access-tokens/access-tokens-page'))
                    .AccessTokensPage,
                }),
              },
              {
                path: 'audit-log',
                lazy: async () => ({
                  Component: (await import('../features/audit-log/audit-log-page')).AuditLogPage,
                }),
              },
            ],
          },
          {
            path: 'organization/:slug',
            element: <OrganizationLayout />,
            children: [{ path: 'usage', lazy: usagePage }],
          },
          {
            path: 'project/:ref',
            lazy: async () => ({
              Component: (await import('../features/project/project-page')).ProjectPage,
            }),
          },
        ],
      },
      {
        path: 'pay/invoices/:invoiceId',
        lazy: async () => ({
          Component: (await import('./pay-invoice-route')).PayInvoiceRoute,
        }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('../features/pay/pay-invoice-page')).PayInvoicePage,
            }),
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

async function usagePage() {
  return { Component: (await import('../features/usage/usage-page')).UsagePage };
}
