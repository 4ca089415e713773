import { describe, expect, it } from 'vitest';
import { relativeTime } from './relative-time';

describe('relativeTime', () => {
  const now = 1_800_000_000;
  it.each([
    [now - 5, 'just now'],
    [now - 60, '1 minute ago'],
    [now - 5 * 60, '5 minutes ago'],
    [now - 3 * 3_600, '3 hours ago'],
    [now - 86_400, 'yesterday'],
    [now - 10 * 86_400, 'last week'],
    [now - 100 * 86_400, '3 months ago'],
    [now - 800 * 86_400, '2 years ago'],
  ])('%i → %s', (at, text) => {
    expect(relativeTime(at, now)).toBe(text);
  });
});
