import { describe, expect, it } from 'vitest';
import {
  downgradeRestartsProjects,
  downgradeSuccessToast,
  downgradeTier,
  scheduledChangeText,
  subscriptionUpdateErrorMessage,
} from './downgrade-outcome.ts';

// 1 Dec 2026 00:00 UTC
const DEC_1 = 1_796_083_200;

describe('downgradeTier', () => {
  it('sends Free as tier_free and Team to Pro as the pay-as-you-go tier', () => {
    expect(downgradeTier('free')).toBe('tier_free');
    expect(downgradeTier('pro')).toBe('tier_payg');
    expect(downgradeTier('team')).toBe('tier_team');
  });
});

describe('downgradeRestartsProjects', () => {
  const active = (instance_size: 'nano' | 'micro') => ({
    status: 'ACTIVE_HEALTHY' as const,
    instance_size,
  });

  it('restarts active projects above the free instance on a downgrade to Free', () => {
    expect(downgradeRestartsProjects('free', [active('nano'), active('micro')])).toBe(true);
  });

  it('restarts nothing already on the free instance, inactive, or on a paid target', () => {
    expect(downgradeRestartsProjects('free', [active('nano')])).toBe(false);
    expect(
      downgradeRestartsProjects('free', [{ status: 'INACTIVE', instance_size: 'micro' }]),
    ).toBe(false);
    expect(downgradeRestartsProjects('pro', [active('micro')])).toBe(false);
    expect(downgradeRestartsProjects('free', [])).toBe(false);
  });
});

describe('downgradeSuccessToast', () => {
  it('to Free: the spec sentence for 4 s, or its longer variant for 8 s when projects restart', () => {
    expect(
      downgradeSuccessToast({ target: 'free', restartsProjects: false, scheduledAt: null }),
    ).toEqual({
      message: 'Successfully downgraded organization to the Free Plan',
      durationMs: 4000,
    });
    const restarting = downgradeSuccessToast({
      target: 'free',
      restartsProjects: true,
      scheduledAt: null,
    });
    expect(restarting.durationMs).toBe(8000);
    expect(restarting.message).toMatch(/^Successfully downgraded organization to the Free Plan\. /);
    expect(restarting.message).toMatch(/restarting/);
  });

  it('to Pro: "Successfully downgraded subscription to Pro!" for 4 s', () => {
    expect(
      downgradeSuccessToast({ target: 'pro', restartsProjects: false, scheduledAt: null }),
    ).toEqual({ message: 'Successfully downgraded subscription to Pro!', durationMs: 4000 });
  });

  it('scheduled: says the date it takes effect', () => {
    const toast = downgradeSuccessToast({
      target: 'free',
      restartsProjects: true,
      scheduledAt: DEC_1,
    });
    expect(toast.message).toContain('Free plan on Dec 01, 2026');
  });
});

describe('texts', () => {
  it('words the error and the scheduled change', () => {
    expect(subscriptionUpdateErrorMessage('Nope')).toBe('Unable to update subscription: Nope');
    expect(scheduledChangeText('free', DEC_1)).toBe(
      'Your organization will move to the Free plan on Dec 01, 2026',
    );
  });
});
