import { describe, expect, it } from 'vitest';
import {
  BACKUP_CARD_IS_DEFAULT_MESSAGE,
  backupCardRefusal,
  backupPaymentMethodResponseSchema,
  setBackupPaymentMethodBodySchema,
  triesBackupCard,
  type FirstChargeOutcome,
} from './backup-card.ts';
import { cardBadges } from './payment-methods.ts';

describe('backupCardRefusal', () => {
  it('refuses the default card and takes any other', () => {
    expect(backupCardRefusal({ is_default: true })).toBe(BACKUP_CARD_IS_DEFAULT_MESSAGE);
    expect(backupCardRefusal({ is_default: false })).toBeNull();
  });
});

describe('triesBackupCard', () => {
  const base = {
    trigger: 'automatic' as const,
    firstOutcome: 'declined' as const,
    backupCardId: 'pm_backup',
    chargedCardId: 'pm_default',
  };

  it('tries the backup after a decline of an automatic collection', () => {
    expect(triesBackupCard(base)).toBe(true);
  });

  it('never falls back on session: the customer chose the card', () => {
    expect(triesBackupCard({ ...base, trigger: 'pay_now' })).toBe(false);
  });

  it('falls back only on a definite decline', () => {
    const others: FirstChargeOutcome[] = [
      'succeeded',
      'processing',
      'requires_action',
      'not_answered_by_card',
      'unknown',
      'no_card',
    ];
    for (const firstOutcome of others) {
      expect(triesBackupCard({ ...base, firstOutcome }), firstOutcome).toBe(false);
    }
  });

  it('needs a backup card other than the one that declined', () => {
    expect(triesBackupCard({ ...base, backupCardId: null })).toBe(false);
    expect(triesBackupCard({ ...base, backupCardId: 'pm_default' })).toBe(false);
  });
});

describe('the backup card contract', () => {
  it('names the field of a missing or malformed card id', () => {
    const missing = setBackupPaymentMethodBodySchema.safeParse({});
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.message).toBe('Payment method id required');
    const malformed = setBackupPaymentMethodBodySchema.safeParse({ payment_method_id: 'pm_1 2' });
    expect(malformed.error?.issues[0]?.message).toBe('Payment method id is not valid');
    expect(setBackupPaymentMethodBodySchema.parse({ payment_method_id: 'pm_abc' })).toEqual({
      payment_method_id: 'pm_abc',
    });
  });

  it('answers the backup card, or null', () => {
    expect(backupPaymentMethodResponseSchema.parse({ backupPaymentMethodId: null })).toEqual({
      backupPaymentMethodId: null,
    });
  });
});

describe('the Backup badge', () => {
  it('marks the backup card after its expiry badges', () => {
    const now = Date.UTC(2026, 10, 21) / 1000;
    expect(
      cardBadges(
        { is_default: false, is_backup: true, card: { exp_month: 11, exp_year: 2026 } },
        now,
      ),
    ).toEqual(['Expiring soon', 'Backup']);
    expect(
      cardBadges(
        { is_default: true, is_backup: false, card: { exp_month: 1, exp_year: 2030 } },
        now,
      ),
    ).toEqual(['Active']);
  });
});
