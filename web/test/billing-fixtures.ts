import {
  dailyUsageSchema,
  invoiceDetailSchema,
  invoiceListSchema,
  organizationSchema,
  orgUsageSchema,
  paymentLinkSchema,
  plansListSchema,
  projectSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
} from '@meterline/domain';
import { z } from 'zod/mini';
import invoiceAcmeProOpen from './recorded/invoice-acme-pro-open.json';
import invoicesAcmeFreePage1 from './recorded/invoices-acme-free-page-1.json';
import invoicesAcmeProPage1 from './recorded/invoices-acme-pro-page-1.json';
import invoicesAcmeProPage2 from './recorded/invoices-acme-pro-page-2.json';
import invoicesAcmeProPage3 from './recorded/invoices-acme-pro-page-3.json';
import invoicesCountAcmeFree from './recorded/invoices-count-acme-free.json';
import invoicesCountAcmePro from './recorded/invoices-count-acme-pro.json';
import organizationFairuseCo from './recorded/organization-fairuse-co.json';
import organizationGraceCo from './recorded/organization-grace-co.json';
import organizationLimitsCo from './recorded/organization-limits-co.json';
import organizationPaygCo from './recorded/organization-payg-co.json';
import organizationRestrictedCo from './recorded/organization-restricted-co.json';
import paymentLinkAcmeProOpen from './recorded/payment-link-acme-pro-open.json';
import plansAcmePro from './recorded/plans-acme-pro.json';
import projectsLimitsCo from './recorded/projects-limits-co.json';
import subscriptionAcmeFree from './recorded/subscription-acme-free.json';
import subscriptionAcmePro from './recorded/subscription-acme-pro.json';
import subscriptionAwsCo from './recorded/subscription-aws-co.json';
import subscriptionGraceCo from './recorded/subscription-grace-co.json';
import subscriptionLimitsCo from './recorded/subscription-limits-co.json';
import subscriptionPaygCo from './recorded/subscription-payg-co.json';
import upcomingInvoiceAcmePro from './recorded/upcoming-invoice-acme-pro.json';
import upcomingInvoicePaygCo from './recorded/upcoming-invoice-payg-co.json';
import usageAcmeFree from './recorded/usage-acme-free.json';
import usageAcmePro from './recorded/usage-acme-pro.json';
import usageDailyAcmePro from './recorded/usage-daily-acme-pro.json';
import usageDailyAcmeProAcmepro1 from './recorded/usage-daily-acme-pro-acmepro1.json';
import usageDailyLimitsCo from './recorded/usage-daily-limits-co.json';
import usageFairuseCo from './recorded/usage-fairuse-co.json';
import usageGraceCo from './recorded/usage-grace-co.json';
import usageLimitsCo from './recorded/usage-limits-co.json';
import usagePaygCo from './recorded/usage-payg-co.json';
import usageRestrictedCo from './recorded/usage-restricted-co.json';

/** The recorded header of HEAD /billing/invoices. */
const countSchema = z.pipe(
  z.object({ 'x-total-count': z.number().check(z.int()).check(z.gte(0)) }),
  z.transform((value) => value['x-total-count']),
);

/** A recorded /usage/daily answer with the range it was asked for. */
const dailyRecordingSchema = z.extend(dailyUsageSchema, {
  start: z.string(),
  end: z.string(),
  projectRef: z.optional(z.string()),
});

/**
 * Billing responses recorded from the API with the demo world (signed in as owner@example.com),
 * parsed by the schemas the app parses them with. Re-record after the demo world changes.
 */
export const recordedBilling = {
  organization: {
    paygCo: organizationSchema.parse(organizationPaygCo),
    graceCo: organizationSchema.parse(organizationGraceCo),
    limitsCo: organizationSchema.parse(organizationLimitsCo),
    fairuseCo: organizationSchema.parse(organizationFairuseCo),
    restrictedCo: organizationSchema.parse(organizationRestrictedCo),
  },
  subscription: {
    acmePro: subscriptionSchema.parse(subscriptionAcmePro),
    paygCo: subscriptionSchema.parse(subscriptionPaygCo),
    acmeFree: subscriptionSchema.parse(subscriptionAcmeFree),
    graceCo: subscriptionSchema.parse(subscriptionGraceCo),
    limitsCo: subscriptionSchema.parse(subscriptionLimitsCo),
    awsCo: subscriptionSchema.parse(subscriptionAwsCo),
  },
  plans: { acmePro: plansListSchema.parse(plansAcmePro) },
  upcomingInvoice: {
    acmePro: upcomingInvoiceSchema.parse(upcomingInvoiceAcmePro),
    paygCo: upcomingInvoiceSchema.parse(upcomingInvoicePaygCo),
  },
  invoices: {
    acmePro: [invoicesAcmeProPage1, invoicesAcmeProPage2, invoicesAcmeProPage3].map((page) =>
      invoiceListSchema.parse(page),
    ),
    acmeFree: [invoiceListSchema.parse(invoicesAcmeFreePage1)],
  },
  invoicesCount: {
    acmePro: countSchema.parse(invoicesCountAcmePro),
    acmeFree: countSchema.parse(invoicesCountAcmeFree),
  },
  invoice: { acmeProOpen: invoiceDetailSchema.parse(invoiceAcmeProOpen) },
  paymentLink: { acmeProOpen: paymentLinkSchema.parse(paymentLinkAcmeProOpen) },
  usage: {
    acmePro: orgUsageSchema.parse(usageAcmePro),
    paygCo: orgUsageSchema.parse(usagePaygCo),
    acmeFree: orgUsageSchema.parse(usageAcmeFree),
    graceCo: orgUsageSchema.parse(usageGraceCo),
    limitsCo: orgUsageSchema.parse(usageLimitsCo),
    fairuseCo: orgUsageSchema.parse(usageFairuseCo),
    restrictedCo: orgUsageSchema.parse(usageRestrictedCo),
  },
  dailyUsage: {
    acmePro: dailyRecordingSchema.parse(usageDailyAcmePro),
    acmeProProject1: dailyRecordingSchema.parse(usageDailyAcmeProAcmepro1),
    limitsCo: dailyRecordingSchema.parse(usageDailyLimitsCo),
  },
  projects: { limitsCo: z.array(projectSchema).parse(projectsLimitsCo) },
};
