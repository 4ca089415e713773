import { describe, expect, it } from 'vitest';
import {
  countsForFreeLimit,
  hasReachedFreeProjectLimit,
  isActiveFreeProject,
  reachedFreeProjectLimit,
  type FreeLimitCandidate,
} from './free-project-limit.ts';

const member = (overrides: Partial<FreeLimitCandidate>): FreeLimitCandidate => ({
  username: 'Maya Crowder',
  primary_email: 'maya@example.com',
  role: 'owner',
  free_project_limit: 2,
  active_free_projects: 2,
  ...overrides,
});

describe('the free project limit', () => {
  it('is reached when the count meets the limit, not before', () => {
    expect(hasReachedFreeProjectLimit(1, 2)).toBe(false);
    expect(hasReachedFreeProjectLimit(2, 2)).toBe(true);
    expect(hasReachedFreeProjectLimit(3, 2)).toBe(true);
    expect(hasReachedFreeProjectLimit(0, 0)).toBe(true);
  });

  it('counts only running projects of organizations on the Free plan', () => {
    expect(isActiveFreeProject({ status: 'ACTIVE_HEALTHY', planId: 'free' })).toBe(true);
    expect(isActiveFreeProject({ status: 'COMING_UP', planId: 'free' })).toBe(true);
    expect(isActiveFreeProject({ status: 'INACTIVE', planId: 'free' })).toBe(false);
    expect(isActiveFreeProject({ status: 'GOING_DOWN', planId: 'free' })).toBe(false);
    expect(isActiveFreeProject({ status: 'ACTIVE_HEALTHY', planId: 'pro' })).toBe(false);
  });

  it('applies to owners and administrators only', () => {
    expect(countsForFreeLimit('owner')).toBe(true);
    expect(countsForFreeLimit('administrator')).toBe(true);
    expect(countsForFreeLimit('developer')).toBe(false);
    expect(countsForFreeLimit('read_only')).toBe(false);
  });

  it('lists the owners and administrators at their limit, by email, without the count', () => {
    const listed = reachedFreeProjectLimit([
      member({ primary_email: 'theo@example.com', username: 'Theo', role: 'administrator' }),
      member({}),
      member({ primary_email: 'dev@example.com', role: 'developer', active_free_projects: 9 }),
      member({
        primary_email: 'owner@example.com',
        free_project_limit: 10,
        active_free_projects: 8,
      }),
    ]);
    expect(listed).toEqual([
      { username: 'Maya Crowder', primary_email: 'maya@example.com', free_project_limit: 2 },
      { username: 'Theo', primary_email: 'theo@example.com', free_project_limit: 2 },
    ]);
  });
});
