import { describe, expect, it } from 'vitest';
import { organizationSwitchPath } from './switch-path';

describe('organizationSwitchPath', () => {
  it('keeps the sub-page of the organization being left', () => {
    expect(organizationSwitchPath('/org/acme-pro/billing', 'acme-free')).toBe(
      '/org/acme-free/billing',
    );
    expect(organizationSwitchPath('/org/acme-pro', 'acme-free')).toBe('/org/acme-free');
    expect(organizationSwitchPath('/org/acme-pro/usage/', 'acme-free')).toBe(
      '/org/acme-free/usage',
    );
    expect(organizationSwitchPath('/organization/acme-pro/usage', 'aws-co')).toBe(
      '/organization/aws-co/usage',
    );
  });

  it('opens the organization home from other pages', () => {
    expect(organizationSwitchPath('/project/acmepro1', 'acme-free')).toBe('/org/acme-free');
  });
});
