import { describe, expect, it } from 'vitest';
import { restrictedProjectMessage } from './restricted-project-message.ts';

const free = { planId: 'free', usageBillingEnabled: false } as const;
const capped = { planId: 'pro', usageBillingEnabled: false } as const;

describe('restrictedProjectMessage', () => {
  it('says which quotas were exceeded and that an upgrade lifts it', () => {
    expect(restrictedProjectMessage(['exceed_db_size_quota', 'exceed_egress_quota'], free)).toBe(
      'This project’s organization is restricted because it went over its plan’s quota (Database Size and Egress) after its grace period ended, so all services are paused. To lift the restriction, upgrade to a paid plan.',
    );
    expect(restrictedProjectMessage(['exceed_egress_quota'], capped)).toMatch(
      /quota \(Egress\).*upgrade the plan or disable the spend cap\.$/,
    );
  });

  it('says an overdue invoice is paid to lift it, and both when both apply', () => {
    expect(restrictedProjectMessage(['overdue_payment'], capped)).toBe(
      'This project’s organization is restricted because an invoice is overdue, so all services are paused. To lift the restriction, pay the overdue invoice on its billing page.',
    );
    expect(restrictedProjectMessage(['exceed_storage_size_quota', 'overdue_payment'], free)).toBe(
      'This project’s organization is restricted because an invoice is overdue and it went over its plan’s quota (Storage Size) after its grace period ended, so all services are paused. To lift the restriction, pay the overdue invoice on its billing page, and upgrade to a paid plan.',
    );
  });

  it('falls back to a general message without violations', () => {
    expect(restrictedProjectMessage([], free)).toMatch(/restricted: all services are paused/);
  });
});
