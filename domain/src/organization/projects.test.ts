import { describe, expect, it } from 'vitest';
import { projectRef } from './projects.ts';
import { effectiveManagedBy } from './partners.ts';

describe('projectRef', () => {
  it('uses the letters and digits of the slug, cut to 12 characters', () => {
    expect(projectRef('acme-pro', 1)).toBe('acmepro1');
    expect(projectRef('vercel_icfg_demo123', 1)).toBe('vercelicfgde1');
    expect(projectRef('restricted-co', 1)).toBe('restrictedco1');
  });
});

describe('effectiveManagedBy', () => {
  it('treats the deployment-platform slug prefix as partner-managed', () => {
    expect(effectiveManagedBy({ slug: 'vercel_icfg_x', managed_by: 'platform' })).toBe(
      'vercel-marketplace',
    );
    expect(effectiveManagedBy({ slug: 'aws-co', managed_by: 'aws-marketplace' })).toBe(
      'aws-marketplace',
    );
    expect(effectiveManagedBy({ slug: 'acme-pro', managed_by: 'platform' })).toBe('platform');
  });
});
