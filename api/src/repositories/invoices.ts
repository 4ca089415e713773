import {
  creditedToBalance,
  type InvoiceDetail,
  type Invoice,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { invoiceAftermath } from './invoice-disputes.ts';
import type { InvoiceStatus } from '../db/schema.ts';
import { subscriptionId } from './subscriptions.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export interface NewInvoice {
  /** 'spend_cap': a turn-on invoice inside a cycle; else the cycle's own invoice (the default). */
  kind?: 'cycle' | 'spend_cap';
  id: string;
  organizationId: string;
  number: string;
  sequence: number;
  status: InvoiceStatus;
  periodStart: Date;
  periodEnd: Date;
  subtotalCents: number;
  creditAppliedCents: number;
  amountDueCents: number;
  nextPaymentAttemptAt: Date | null;
  billingName: string | null;
  billingAddress: unknown;
  taxId: unknown;
  billingEmail: string | null;
  planId: InvoiceRow['plan_id'];
  finalizedAt: Date;
  lines: readonly UpcomingInvoiceLine[];
}

export async function insertInvoice(db: Db, invoice: NewInvoice): Promise<void> {
  await db
    .insertInto('invoices')
    .values({
      id: invoice.id,
      organization_id: invoice.organizationId,
      number: invoice.number,
      sequence: invoice.sequence,
      status: invoice.status,
      period_start: invoice.periodStart,
      period_end: invoice.periodEnd,
      subtotal_cents: invoice.subtotalCents,
      credit_applied_cents: invoice.creditAppliedCents,
      amount_due_cents: invoice.amountDueCents,
      amount_paid_cents: invoice.status === 'paid' ? invoice.amountDueCents : 0,
      next_payment_attempt_at: invoice.nextPaymentAttemptAt,
      billing_name: invoice.billingName,
      billing_address:
        invoice.billingAddress === null ? null : JSON.stringify(invoice.billingAddress),
      tax_id: invoice.taxId === null ? null : JSON.stringify(invoice.taxId),
      billing_email: invoice.billingEmail,
      plan_id: invoice.planId,
      finalized_at: invoice.finalizedAt,
      paid_at: invoice.status === 'paid' ? invoice.finalizedAt : null,
      kind: invoice.kind ?? 'cycle',
    })
    .execute();
  if (invoice.lines.length === 0) return;
  await db
    .insertInto('invoice_lines')
    .values(
      invoice.lines.map((line, position) => ({
        invoice_id: invoice.id,
        position,
        description: line.description,
        amount_cents: line.amount,
        amount_before_discount_cents: line.amount_before_discount,
        unit_price_desc: line.unit_price_desc,
        usage_metric: line.usage_metric,
        usage_original: line.usage_original,
        included_quantity: line.included_quantity,
        metadata: JSON.stringify(line.metadata),
        breakdown: JSON.stringify(line.breakdown),
        quantity: line.quantity,
        unit_price: line.unit_price,
        proration: line.proration,
        usage_based: line.usage_based,
      })),
    )
    .execute();
}

/** Invoices are numbered 1…n per organization and never deleted, so the count is the highest number. */
export async function countInvoices(db: Db, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select(sql<number>`coalesce(max(sequence), 0)::int`.as('count'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** The organization's invoice prefix, or null before its first invoice. */
export async function storedInvoicePrefix(db: Db, organizationId: string): Promise<string | null> {
  const row = await db
    .selectFrom('organizations')
    .select('invoice_prefix')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.invoice_prefix;
}

/** The next value of the global prefix sequence: each is handed out once, whatever rolls back. */
export async function nextInvoicePrefixAllocation(db: Db): Promise<number> {
  const { rows } = await sql<{ value: string | number }>`
    SELECT nextval('invoice_prefix_seq') AS value
  `.execute(db);
  return Number(rows[0]?.value);
}

/** Stores the prefix unless the organization has one already; answers the one it keeps. */
export async function keepInvoicePrefix(
  db: Db,
  organizationId: string,
  prefix: string,
): Promise<string> {
  const row = await db
    .updateTable('organizations')
    .set({ invoice_prefix: sql<string>`coalesce(invoice_prefix, ${prefix})` })
    .where('id', '=', organizationId)
    .returning('invoice_prefix')
    .executeTakeFirstOrThrow();
  return row.invoice_prefix ?? prefix;
}

const LIST_COLUMNS = [
  'id',
  'number',
  'status',
  'period_start',
  'period_end',
  'subtotal_cents',
  'amount_due_cents',
  'payment_attempted',
  'created_at',
] as const;

type InvoiceRow = {
  id: string;
  number: string;
  status: InvoiceStatus;
  period_start: Date;
  period_end: Date;
  subtotal_cents: number;
  amount_due_cents: number;
  payment_attempted: boolean;
  created_at: Date;
  plan_id: 'free' | 'pro' | 'team' | 'enterprise';
};

export function invoicePdfPath(slug: string, invoiceId: string): string {
  return `/platform/organizations/${slug}/billing/invoices/${invoiceId}/pdf`;
}

function toInvoice(
  row: Omit<InvoiceRow, 'plan_id'>,
  owner: { slug: string; organizationId: string },
): Invoice {
  const { slug } = owner;
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    period_start: seconds(row.period_start),
    period_end: seconds(row.period_end),
    amount_due: row.amount_due_cents,
    subtotal: row.subtotal_cents,
    total: row.subtotal_cents,
    payment_attempted: row.payment_attempted,
    invoice_pdf: invoicePdfPath(slug, row.id),
    created_at: seconds(row.created_at),
    subscription: subscriptionId(owner.organizationId),
  };
}

/**
 * Newest first. The page is a range of the per-organization sequence, so any page costs one index range
 * read however deep it is, and pages never skip or repeat an invoice.
 */
export async function listInvoices(
  db: Db,
  organizationId: string,
  slug: string,
  offset: number,
  limit: number,
): Promise<{ total: number; invoices: Invoice[] }> {
  // One statement: the count (the newest sequence) and the page's range below it.
  const rows = await db
    .with('newest', (qb) =>
      qb
        .selectFrom('invoices')
        .select(sql<number>`coalesce(max(sequence), 0)::int`.as('total'))
        .where('organization_id', '=', organizationId),
    )
    .selectFrom('newest')
    .leftJoin('invoices', (join) =>
      join
        .on('invoices.organization_id', '=', organizationId)
        .on('invoices.sequence', '<=', sql<number>`newest.total - ${offset}`)
        .on('invoices.sequence', '>', sql<number>`newest.total - ${offset + limit}`),
    )
    .select(['newest.total', ...LIST_COLUMNS.map((column) => `invoices.${column}` as const)])
    .orderBy('invoices.sequence', 'desc')
    .execute();
  const invoices: Invoice[] = [];
  for (const row of rows) {
    const { id, number, status, period_start, period_end, created_at } = row;
    if (id === null || number === null || status === null) continue;
    if (period_start === null || period_end === null || created_at === null) continue;
    invoices.push(
      toInvoice(
        {
          id,
          number,
          status,
          period_start,
          period_end,
          created_at,
          subtotal_cents: row.subtotal_cents ?? 0,
          amount_due_cents: row.amount_due_cents ?? 0,
          payment_attempted: row.payment_attempted ?? false,
        },
        { slug, organizationId },
      ),
    );
  }
  return { total: rows[0]?.total ?? 0, invoices };
}

export async function findInvoice(
  db: Db,
  organizationId: string,
  slug: string,
  invoiceId: string,
): Promise<InvoiceDetail | undefined> {
  const row = await db
    .selectFrom('invoices')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const [lines, change] = await Promise.all([
    db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .orderBy('position')
      .execute(),
    // A plan change's invoice may sum below zero: that part went to the credit balance.
    db
      .selectFrom('plan_changes')
      .select('billed_via_partner')
      .where('organization_id', '=', organizationId)
      .where('invoice_id', '=', invoiceId)
      .where('kind', '=', 'plan')
      .executeTakeFirst(),
  ]);
  return {
    ...toInvoice(row, { slug, organizationId }),
    lines: lines.map((line) => ({
      description: line.description,
      amount: line.amount_cents,
      amount_before_discount: line.amount_before_discount_cents,
      unit_price_desc: line.unit_price_desc ?? '',
      usage_metric: line.usage_metric as UpcomingInvoiceLine['usage_metric'],
      usage_original: line.usage_original === null ? null : Number(line.usage_original),
      included_quantity: line.included_quantity === null ? null : Number(line.included_quantity),
      metadata: line.metadata as UpcomingInvoiceLine['metadata'],
      breakdown: line.breakdown as UpcomingInvoiceLine['breakdown'],
      proration: line.proration,
      quantity: line.quantity === null ? null : Number(line.quantity),
      unit_price: line.unit_price === null ? null : Number(line.unit_price),
      usage_based: line.usage_based,
    })),
    credit_applied: row.credit_applied_cents,
    amount_paid: row.amount_paid_cents,
    credited_to_balance: change
      ? creditedToBalance(row.subtotal_cents, change.billed_via_partner)
      : 0,
    billing_name: row.billing_name,
    billing_email: row.billing_email,
    billing_address: invoiceAddress(row.billing_address),
    tax_id: row.tax_id as InvoiceDetail['tax_id'],
    finalized_at: seconds(row.finalized_at),
    paid_at: row.paid_at ? seconds(row.paid_at) : null,
    paid_with: row.amount_paid_cents > 0 ? await paidWith(db, invoiceId) : null,
    ...(await invoiceAftermath(db, invoiceId)),
  };
}

/**
 * The address the invoice was finalized with: kept as the profile had it, where an address without a
 * second line or a state has no such keys; the invoice states them as null.
 */
function invoiceAddress(stored: unknown): InvoiceDetail['billing_address'] {
  if (!stored) return null;
  const address = stored as NonNullable<InvoiceDetail['billing_address']>;
  return { ...address, line2: address.line2 ?? null, state: address.state ?? null };
}

/**
 * The card of the invoice's latest successful charge: the organization's saved card it names, else the
 * provider's card of that id (a card entered for this payment alone, kept by the built-in simulator).
 */
async function paidWith(
  db: Db,
  invoiceId: string,
): Promise<{ brand: string; last4: string } | null> {
  const row = await db
    .selectFrom('charges')
    .leftJoin('payment_methods', (join) =>
      join.on((eb) =>
        eb.or([
          eb('payment_methods.id', '=', eb.ref('charges.payment_method_id')),
          eb(
            'payment_methods.provider_payment_method_id',
            '=',
            eb.ref('charges.provider_payment_method_id'),
          ),
        ]),
      ),
    )
    .leftJoin(
      'simulator_payment_methods',
      'simulator_payment_methods.id',
      'charges.provider_payment_method_id',
    )
    .select([
      'payment_methods.brand as savedBrand',
      'payment_methods.last4 as savedLast4',
      'simulator_payment_methods.brand as providerBrand',
      'simulator_payment_methods.last4 as providerLast4',
    ])
    .where('charges.invoice_id', '=', invoiceId)
    .where('charges.status', '=', 'succeeded')
    .where('charges.refund_status', 'is', null)
    .orderBy('charges.updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  if (row.savedBrand !== null && row.savedLast4 !== null) {
    return { brand: row.savedBrand, last4: row.savedLast4 };
  }
  if (row.providerBrand !== null && row.providerLast4 !== null) {
    return { brand: row.providerBrand, last4: row.providerLast4 };
  }
  return null;
}

/** An invoice with the organization it bills (a pay link names only the invoice). */
export function findInvoiceWithOrganization(db: Db, invoiceId: string) {
  return db
    .selectFrom('invoices')
    .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
    .select(['invoices.id', 'invoices.organization_id', 'organizations.slug', 'organizations.name'])
    .where('invoices.id', '=', invoiceId)
    .executeTakeFirst();
}

export function lockInvoice(db: Db, invoiceId: string) {
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', invoiceId)
    .forUpdate()
    .executeTakeFirst();
}

export async function invoicesDueForPayment(
  db: Db,
  at: Date,
  organizationId?: string,
): Promise<{ id: string; organizationId: string }[]> {
  let query = db
    .selectFrom('invoices')
    .select(['id', 'organization_id as organizationId'])
    .where('status', '=', 'open')
    .where('next_payment_attempt_at', '<=', at);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  return query.orderBy('next_payment_attempt_at').execute();
}
