import type {
  DailyUsage,
  Invoice,
  InvoiceDetail,
  OrgUsage,
  PlansList,
  Subscription,
  UpcomingInvoice,
} from '@meterline/domain';
import type { QueryClient } from '@tanstack/react-query';
import { INVOICE_PAGE_SIZE } from '@meterline/domain';
import {
  invoiceKeys,
  planKeys,
  subscriptionKeys,
  usageKeys,
  type DailyUsageRange,
} from '../src/data/keys';

/** What the billing screens of one organization read, as the API answered it. */
export interface BillingSeed {
  subscription?: Subscription;
  plans?: PlansList;
  upcomingInvoice?: UpcomingInvoice;
  /** Pages of past invoices in order, INVOICE_PAGE_SIZE each, and the total of HEAD. */
  invoices?: { pages: Invoice[][]; total: number };
  invoiceDetails?: InvoiceDetail[];
  usage?: OrgUsage;
  dailyUsage?: (DailyUsageRange & DailyUsage)[];
}

/** Puts the recorded answers where the hooks look for them: the same keys, nothing mocked. */
export function seedBilling(queryClient: QueryClient, slug: string, seed: BillingSeed): void {
  if (seed.subscription) queryClient.setQueryData(subscriptionKeys.detail(slug), seed.subscription);
  if (seed.plans) queryClient.setQueryData(planKeys.list(slug), seed.plans);
  if (seed.upcomingInvoice) {
    queryClient.setQueryData(invoiceKeys.upcoming(slug), seed.upcomingInvoice);
  }
  if (seed.invoices) {
    queryClient.setQueryData(invoiceKeys.count(slug), seed.invoices.total);
    seed.invoices.pages.forEach((page, index) =>
      queryClient.setQueryData(
        invoiceKeys.list(slug, index * INVOICE_PAGE_SIZE, INVOICE_PAGE_SIZE),
        page,
      ),
    );
  }
  for (const detail of seed.invoiceDetails ?? []) {
    queryClient.setQueryData(invoiceKeys.detail(slug, detail.id), detail);
  }
  if (seed.usage) queryClient.setQueryData(usageKeys.org(slug), seed.usage);
  for (const daily of seed.dailyUsage ?? []) {
    queryClient.setQueryData(
      usageKeys.daily(slug, { start: daily.start, end: daily.end, projectRef: daily.projectRef }),
      { data: daily.data },
    );
  }
}
