import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import type { EmailPayload } from '../../db/email-payload.ts';

/** An event's facts; the organization's name and slug are read with its recipients. */
export type EmailEventFacts = EmailPayload extends infer P
  ? P extends EmailPayload
    ? Omit<P, 'organization'>
    : never
  : never;
import { billingMessage } from './render-email.tsx';

/**
 * The billing recipients of an organization: its billing email and the additional recipients (product
 * decisions §12), each once, case aside. With no billing email on file, the organization's owners.
 */
export async function billingRecipients(trx: Db, organizationId: string): Promise<string[]> {
  const organization = await trx
    .selectFrom('organizations')
    .select(['billing_email', 'additional_billing_emails'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  let emails = [organization.billing_email, ...organization.additional_billing_emails].filter(
    (email): email is string => Boolean(email),
  );
  if (emails.length === 0) {
    const owners = await trx
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select('users.email')
      .where('memberships.organization_id', '=', organizationId)
      .where('memberships.role', '=', 'owner')
      .orderBy('users.email')
      .execute();
    emails = owners.map((owner) => owner.email);
  }
  const seen = new Set<string>();
  return emails.filter((email) => {
    const key = email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The subject, for listings (it names no URL; the body is rendered at delivery). A template that fails
 * must not stop the money its event belongs to: the row keeps a plain subject and the facts.
 */
function subjectOf(payload: EmailPayload): string {
  try {
    return billingMessage(payload, { baseUrl: '', payLinkSecret: '' }).subject;
  } catch {
    return `${payload.organization.name}: ${payload.kind}`;
  }
}

/**
 * Writes one outbox row per billing recipient for an event, in the caller's transaction (the one that
 * decides the event): it commits with the event or not at all. `eventKey` names the event once; the same
 * event decided again (the job run twice, a webhook delivered twice) writes nothing new. `to` names other
 * recipients than the billing ones (a disabled webhook endpoint tells the owners).
 */
export async function enqueueBillingEmail(
  trx: Db,
  organizationId: string,
  eventKey: string,
  event: EmailEventFacts,
  to?: string[],
): Promise<void> {
  const recipients = to ?? (await billingRecipients(trx, organizationId));
  if (recipients.length === 0) return;
  const organization = await trx
    .selectFrom('organizations')
    .select(['slug', 'name'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const payload = { ...event, organization } as EmailPayload;
  const subject = subjectOf(payload);
  const written = new Date();
  await trx
    .insertInto('email_outbox')
    .values(
      recipients.map((recipient) => ({
        id: newId('em'),
        organization_id: organizationId,
        event: payload.kind,
        event_key: `${payload.kind}:${eventKey}`,
        recipient,
        subject,
        payload: JSON.stringify(payload),
        message_id: `<${randomUUID()}@meterline.billing>`,
        // Row times are the wall clock (the worker's), whatever billing time decided the event.
        created_at: written,
        next_attempt_at: written,
      })),
    )
    .onConflict((oc) => oc.columns(['event_key', 'recipient']).doNothing())
    .execute();
}

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** "Visa ending in 4242" for a card of the organization, or null when it is not on file any more. */
export async function cardLabel(trx: Db, paymentMethodId: string | null): Promise<string | null> {
  if (!paymentMethodId) return null;
  const card = await trx
    .selectFrom('payment_methods')
    .select(['brand', 'last4'])
    .where('id', '=', paymentMethodId)
    .executeTakeFirst();
  if (!card) return null;
  return `${BRANDS[card.brand.toLowerCase()] ?? card.brand} ending in ${card.last4}`;
}
