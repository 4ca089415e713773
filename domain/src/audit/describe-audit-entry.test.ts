import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditAction } from './actions.ts';
import { describeAuditEntry, type DescribableAuditEntry } from './describe-audit-entry.ts';

const owner = { type: 'user' as const, id: 'u_1', email: 'owner@example.com' };
const entry = (
  action: AuditAction,
  before: DescribableAuditEntry['before'],
  after: DescribableAuditEntry['after'],
  actor: DescribableAuditEntry['actor'] = owner,
): DescribableAuditEntry => ({ actor, action, before, after });
const visa = { brand: 'visa', last4: '4242' };

describe('describeAuditEntry', () => {
  it.each([
    [
      entry('spend_cap.updated', { spend_cap: true }, { spend_cap: false }),
      'owner@example.com turned the spend cap off',
    ],
    [
      entry('spend_cap.updated', { spend_cap: false }, { spend_cap: true }),
      'owner@example.com turned the spend cap on',
    ],
    [
      entry('payment_method.added', null, { ...visa, exp_month: 12, exp_year: 2030 }),
      'owner@example.com added a Visa card ending 4242',
    ],
    [
      entry('payment_method.added', null, { brand: 'amex', last4: '0005' }),
      'owner@example.com added an American Express card ending 0005',
    ],
    [
      entry('payment_method.removed', visa, null),
      'owner@example.com removed the Visa card ending 4242',
    ],
    [
      entry('payment_method.default_set', { default_card: null }, { default_card: visa }),
      'owner@example.com made the Visa card ending 4242 the default',
    ],
    [
      entry('payment_method.backup_set', { backup_card: null }, { backup_card: visa }),
      'owner@example.com made the Visa card ending 4242 the backup',
    ],
    [
      entry('payment_method.backup_cleared', { backup_card: visa }, { backup_card: null }),
      'owner@example.com stopped using the Visa card ending 4242 as the backup',
    ],
    [
      entry(
        'credits.topped_up',
        { balance_cents: 0 },
        { balance_cents: 10_000, amount_cents: 10_000, card: visa },
      ),
      'owner@example.com topped up $100.00 of credit with the Visa card ending 4242',
    ],
    [
      entry('credits.top_up_failed', null, {
        amount_cents: 10_000,
        failure_message: 'Your card was declined.',
      }),
      'owner@example.com tried to top up $100.00 of credit; the payment failed: Your card was declined.',
    ],
    [
      entry('plan.changed', { plan: 'pro' }, { plan: 'team' }),
      'owner@example.com changed the plan from Pro to Team',
    ],
    [
      entry(
        'plan.change_scheduled',
        { plan: 'pro' },
        { scheduled_plan: 'free', scheduled_at: 1_796_083_200 },
      ),
      'owner@example.com scheduled a change to Free for Dec 01, 2026',
    ],
    [
      entry('plan.scheduled_change_cancelled', { scheduled_plan: 'free' }, null),
      'owner@example.com cancelled the scheduled change to Free',
    ],
    [
      entry(
        'invoice.paid',
        { status: 'open' },
        { status: 'paid', number: 'ML-1-0013', amount_paid_cents: 2500, card: visa },
        { type: 'billing_job', id: null, email: null },
      ),
      'The billing job paid invoice ML-1-0013 ($25.00) with the Visa card ending 4242',
    ],
    [
      entry(
        'invoice.voided',
        { status: 'open', number: 'ML-1-0012' },
        { status: 'void', number: 'ML-1-0012' },
        { type: 'operator', id: null, email: null },
      ),
      'An operator voided invoice ML-1-0012',
    ],
    [
      entry('customer.updated', { address: null }, { address: { line1: 'x' } }),
      'owner@example.com changed the billing address',
    ],
    [
      entry(
        'customer.updated',
        { billing_name: 'A', address: null },
        { billing_name: 'B', address: {} },
      ),
      'owner@example.com changed the billing name and address',
    ],
    [
      entry('tax_id.set', { tax_id: null }, { tax_id: { type: 'eu_vat', value: 'DE123456789' } }),
      'owner@example.com set the tax ID DE123456789',
    ],
    [
      entry('tax_id.removed', { tax_id: { value: 'DE123456789' } }, { tax_id: null }),
      'owner@example.com removed the tax ID DE123456789',
    ],
    [
      entry('spend_alert.updated', null, { budget: 500 }),
      'owner@example.com set the spend alert budget to $500.00',
    ],
    [
      entry(
        'webhook_endpoint.updated',
        { enabled: true },
        { enabled: false, url: 'https://h.example/x' },
      ),
      'owner@example.com turned off the webhook endpoint https://h.example/x',
    ],
    [
      entry('access_token.created', null, { name: 'Finance' }),
      'owner@example.com created the access token "Finance"',
    ],
    [
      entry(
        'restriction.changed',
        { status: null },
        { status: 'grace_period' },
        { type: 'billing_job', id: null, email: null },
      ),
      'The billing job started the grace period',
    ],
    [
      entry(
        'restriction.changed',
        { status: 'restricted' },
        { status: null },
        { type: 'billing_job', id: null, email: null },
      ),
      'The billing job lifted the restriction',
    ],
  ])('%# %j', (input, sentence) => {
    expect(describeAuditEntry(input)).toBe(sentence);
  });

  it("describes the card provider's changes in its name", () => {
    const provider = { type: 'provider' as const, id: null, email: null };
    expect(
      describeAuditEntry(
        entry(
          'payment.refunded',
          { amount_refunded_cents: 0 },
          { number: 'ML-1-0012', amount_refunded_cents: 1250, refunded_cents: 1250 },
          provider,
        ),
      ),
    ).toBe('The card provider refunded $12.50 of the payment of invoice ML-1-0012');
    expect(
      describeAuditEntry(
        entry(
          'payment.dispute_opened',
          null,
          { number: 'ML-1-0012', amount_cents: 2500, reason: 'product_not_received' },
          provider,
        ),
      ),
    ).toBe(
      'The card provider reported a dispute of $25.00 on the payment of invoice ML-1-0012 (product not received)',
    );
    expect(
      describeAuditEntry(
        entry('payment.dispute_closed', null, { number: 'ML-1-0012', status: 'won' }, provider),
      ),
    ).toBe('The card provider closed the dispute on the payment of invoice ML-1-0012: won');
    expect(
      describeAuditEntry(
        entry(
          'payment_method.updated',
          { exp_month: 1, exp_year: 2027 },
          { ...visa, exp_month: 3, exp_year: 2031 },
          provider,
        ),
      ),
    ).toBe('The card provider updated the Visa card ending 4242: it now expires 3/2031');
  });

  it('says something readable for every action, even with nothing recorded beside it', () => {
    for (const action of AUDIT_ACTIONS) {
      for (const actor of [owner, { type: 'token' as const, id: 'tok_1', email: null }]) {
        const sentence = describeAuditEntry(entry(action, null, null, actor));
        expect(sentence).toMatch(/^(owner@example\.com|The access token tok_1) [a-z]/);
        expect(sentence).not.toMatch(/undefined|null|\[object/);
      }
    }
  });

  it('labels a card no longer on file as removed, when the cards on file are known', () => {
    const failing = { id: 'pm_gone', brand: 'visa', last4: '9995' };
    const kept = { id: 'pm_kept', ...visa };
    const cardsOnFile = new Set(['pm_kept']);
    const charge = (card: object) =>
      entry(
        'invoice.payment_failed',
        null,
        { number: 'ML-1-0012', amount_cents: 2500, card, failure_message: 'Insufficient funds.' },
        { type: 'billing_job', id: null, email: null },
      );
    expect(describeAuditEntry(charge(failing), { cardsOnFile })).toBe(
      'The billing job tried to collect invoice ML-1-0012 ($25.00) from the Visa card ending 9995 (removed); the payment failed: Insufficient funds.',
    );
    expect(describeAuditEntry(charge(kept), { cardsOnFile })).toMatch(/ending 4242; the/);
    // Unknown without the cards on file; its own removal needs no label.
    expect(describeAuditEntry(charge(failing))).toMatch(/ending 9995; the/);
    expect(
      describeAuditEntry(entry('payment_method.removed', failing, null), { cardsOnFile }),
    ).toBe('owner@example.com removed the Visa card ending 9995');
  });

  it('names a member who left by what they were', () => {
    expect(
      describeAuditEntry(
        entry('tax_id.removed', null, null, { type: 'user', id: 'u', email: null }),
      ),
    ).toBe('A former member removed the tax ID');
  });
});
