import { describe, expect, it } from 'vitest';
import { addonsLostOnDowngrade, isIgnoredInDowngradeList } from './addons-lost.ts';

const micro = {
  type: 'compute_instance',
  variant: { name: 'Micro', identifier: 'ci_micro' },
} as const;
const small = {
  type: 'compute_instance',
  variant: { name: 'Small', identifier: 'ci_small' },
} as const;
const domain = {
  type: 'custom_domain',
  variant: { name: 'Custom Domain', identifier: 'cd_default' },
} as const;
const logDrain = {
  type: 'log_drain',
  variant: { name: 'Log Drain', identifier: 'log_drain_default' },
} as const;
const phoneMfa = {
  type: 'auth_mfa_phone',
  variant: { name: 'Phone MFA', identifier: 'auth_mfa_phone_default' },
} as const;
const ipv4 = {
  type: 'ipv4',
  variant: { name: 'Dedicated IPv4', identifier: 'ipv4_default' },
} as const;

describe('isIgnoredInDowngradeList', () => {
  it('ignores log drain, phone MFA and the Micro compute variant only', () => {
    expect(isIgnoredInDowngradeList(logDrain)).toBe(true);
    expect(isIgnoredInDowngradeList(phoneMfa)).toBe(true);
    expect(isIgnoredInDowngradeList(micro)).toBe(true);
    expect(isIgnoredInDowngradeList(small)).toBe(false);
    expect(isIgnoredInDowngradeList(domain)).toBe(false);
    expect(isIgnoredInDowngradeList(ipv4)).toBe(false);
  });
});

describe('addonsLostOnDowngrade', () => {
  it('keeps the listed add-ons per project, in order, and drops projects left empty', () => {
    const lost = addonsLostOnDowngrade([
      { project_ref: 'p1', project_name: 'One', addons: [micro, domain, logDrain] },
      { project_ref: 'p2', project_name: 'Two', addons: [micro, phoneMfa] },
      { project_ref: 'p3', project_name: 'Three', addons: [small, ipv4] },
    ]);
    expect(lost).toEqual([
      { project_ref: 'p1', project_name: 'One', addons: [domain] },
      { project_ref: 'p3', project_name: 'Three', addons: [small, ipv4] },
    ]);
  });

  it('lists nothing when nothing is worth a line', () => {
    expect(addonsLostOnDowngrade([])).toEqual([]);
    expect(
      addonsLostOnDowngrade([{ project_ref: 'p1', project_name: 'One', addons: [micro] }]),
    ).toEqual([]);
  });
});
